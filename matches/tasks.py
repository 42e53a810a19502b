from celery import shared_task

from matches import notifications, services


@shared_task(acks_late=True, time_limit=60, soft_time_limit=50)
def sweep_deadlines() -> int:
    """Beat runs this every 30 seconds; a missed run loses nothing, the next one catches up."""
    return services.expire_deadlines() + services.expire_sequence_deadlines()


@shared_task(acks_late=True, time_limit=30, soft_time_limit=25)
def notify_decision(decision_id: int) -> None:
    notifications.decision_awaits(decision_id)


@shared_task(acks_late=True, time_limit=30, soft_time_limit=25)
def notify_turn(match_id: int) -> None:
    notifications.turn_starts(match_id)


@shared_task(acks_late=True, time_limit=30, soft_time_limit=25)
def notify_mentions(post_id: int) -> None:
    notifications.mentioned(post_id)
