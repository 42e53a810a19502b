import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bbweb.settings")
application = get_wsgi_application()

from bbweb.checks import require_production_settings  # noqa: E402  (needs the settings)

require_production_settings()  # gunicorn runs no system checks

# What the process loads once (the apps, every view and the rules' data, which the URLconf
# imports) lives as long as the process: frozen, the garbage collector stops going over it.
# Its full collections otherwise walked some 180,000 objects, about 150 ms each, in the middle
# of whichever request happened to allocate enough.
get_resolver().url_patterns  # noqa: B018
gc.freeze()
