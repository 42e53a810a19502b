from celery import shared_task

from matches import services


@shared_task(acks_late=True, time_limit=60, soft_time_limit=50)
def sweep_deadlines() -> int:
    """Beat runs this every 30 seconds; a missed run loses nothing, the next one catches up."""
    return services.expire_deadlines()
