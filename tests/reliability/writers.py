"""Writers under load for the kill -9 and backup tests: threads that create areas through the API and through the
page form, and remember each one the server acknowledged (201 with its id, or 303 to the new record's page)."""

import re
import threading
from collections import Counter
import time
import uuid

from client import ApiSession, Http, PageSession
from suite import ACCOUNTS

RECORD_PAGE = re.compile(r"^/areas/([0-9a-f-]{36})$")


class Writers:
    def __init__(self, port: int, api_threads: int = 2, page_threads: int = 2):
        http = Http(port)
        self.acknowledged: list[tuple[float, str, str]] = []  # (time acknowledged, how, id)
        self.statuses: Counter[int] = Counter()  # every answer's status, acknowledged or not
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self._api, args=(ApiSession(http, ACCOUNTS["editor"]),), daemon=True)
                        for _ in range(api_threads)]
        self.threads += [threading.Thread(target=self._page, args=(PageSession(http, ACCOUNTS["editor"]),), daemon=True)
                         for _ in range(page_threads)]

    def start(self) -> "Writers":
        for thread in self.threads:
            thread.start()
        return self

    def stop(self):
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=30)

    def _record(self, how: str, record_id: str):
        with self.lock:
            self.acknowledged.append((time.monotonic(), how, record_id))

    def _count(self, status: int):
        with self.lock:
            self.statuses[status] += 1

    def _api(self, api: ApiSession):
        while not self.stopping.is_set():
            try:
                answer = api.call("POST", "/api/v1/areas", {"name": f"API {uuid.uuid4().hex[:12]}", "area_type": "CITY"}, timeout=10)
            except OSError:
                continue  # the server is gone (killed): nothing was acknowledged
            self._count(answer.status)
            if answer.status == 201:
                self._record("api", answer.json()["id"])

    def _page(self, page: PageSession):
        while not self.stopping.is_set():
            try:
                answer = page.post("/areas/new", {"name": f"Form {uuid.uuid4().hex[:12]}", "area_type": "CITY", "parent_id": ""},
                                   timeout=10)
            except OSError:
                continue
            self._count(answer.status)
            match = RECORD_PAGE.match(answer.headers.get("location", "")) if answer.status == 303 else None
            if match:
                self._record("form", match.group(1))

    def acknowledged_before(self, moment: float) -> list[str]:
        with self.lock:
            return [record_id for at, _, record_id in self.acknowledged if at < moment]

    def count(self, how: str) -> int:
        with self.lock:
            return sum(1 for _, kind, _ in self.acknowledged if kind == how)
