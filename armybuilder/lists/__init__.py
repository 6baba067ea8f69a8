"""The list pages: my lists, the gallery, the one-page htmx list editor, import, sharing links."""
