"""Player accounts: sign up here; log in, log out and passwords through django.contrib.auth."""
