from celery import shared_task

from bbweb import outbox


@shared_task(acks_late=True, ignore_result=True, time_limit=60, soft_time_limit=50)
def relay_outbox() -> int:
    """Beat runs this every few seconds: the tasks the broker could not take when their
    change was committed go out now; a missed run loses nothing."""
    return outbox.relay()
