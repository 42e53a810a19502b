FROM python:3.12-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
RUN apt-get update && apt-get install -y --no-install-recommends gettext && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml ./
COPY bbweb ./bbweb
COPY rules ./rules
COPY teams ./teams
COPY matches ./matches
RUN pip install --no-cache-dir .
COPY . .
RUN python manage.py compilemessages --ignore=.venv -v 0 \
 && DJANGO_DEBUG=1 python manage.py collectstatic --no-input -v 0
RUN useradd --create-home bbweb && chown -R bbweb /app
USER bbweb
EXPOSE 8000
CMD ["gunicorn", "bbweb.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
