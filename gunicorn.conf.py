"""gunicorn's settings file, read from the working directory by every `gunicorn` command here
(docker-compose, the Dockerfile, the benchmarks). The command lines keep the bind, workers and
timeouts; this file holds what a command line cannot say: the worker hooks."""


def post_worker_init(worker: object) -> None:
    """Each worker, once it has loaded the application: freeze the start-up heap, so full
    garbage collections skip it, and hold full collections back to the moments between
    requests (`armybuilder.process_heap.prepare_server_worker`)."""
    from armybuilder.process_heap import prepare_server_worker

    prepare_server_worker()


def post_request(worker: object, req: object, environ: dict, resp: object) -> None:
    """After each response has been written: the full garbage collection, if one is due, that
    `post_worker_init` keeps out of requests (`armybuilder.process_heap.collect_if_due`)."""
    from armybuilder.process_heap import collect_if_due

    collect_if_due()


#: Seconds an idle keep-alive connection stays open. Longer than any `Retry-After`
#: the app sends while a job runs (2 s for a PDF or an estimate being computed), so a client
#: that waits as told and polls again on the same connection never races the server closing
#: it ("connection reset by peer"); gunicorn's default is exactly 2 s.
keepalive = 5

#: Bytes of a request line gunicorn reads (its largest setting; its default is 4094). Lines past
#: 4094 bytes reach the app, which answers them with a 414 in the API's JSON error shape
#: (`armybuilder/request_line.py`) instead of gunicorn's HTML page.
limit_request_line = 8190
