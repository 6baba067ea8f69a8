"""Signals the list services send to the layers above them (the services know nothing of the API).

`list_saved`: sent when the transaction that changed a list (`services.save_list_change`: every
change of a list or its units moves its version there) has committed, with `list_id`. The API
rewrites the list's stored JSON documents then (`armybuilder.api.list_documents.refresh`), after
the response when a request made the change, so the first read after a change is answered from a
document too.
"""

from django.dispatch import Signal

list_saved = Signal()
