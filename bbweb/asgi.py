import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bbweb.settings")
application = get_asgi_application()

from bbweb.checks import require_production_settings  # noqa: E402  (needs the settings)

require_production_settings()  # an ASGI server runs no system checks
