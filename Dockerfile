# syntax=docker/dockerfile:1
# The build is deploy/build.sh, the one recipe CI runs too (.ci/prod_smoke).
FROM python:3.12-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
RUN apt-get update && apt-get install -y --no-install-recommends gettext && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN --mount=type=cache,target=/root/.cache/pip deploy/build.sh
RUN useradd --create-home bbweb && chown -R bbweb /app
USER bbweb
EXPOSE 8000
CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "bbweb.asgi:application"]
