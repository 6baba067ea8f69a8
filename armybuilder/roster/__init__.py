"""Rosters: a list printed (HTML with a print stylesheet, PDF) or pasted into a chat (text)."""
