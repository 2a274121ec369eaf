"""Measures the field visit pages (issue 12) on a community with many visit lists, stops and logs; called by
scripts/benchmark-visits.sh. Makes the lists through the JSON API first, then prints one table like benchmark-lists."""
import argparse
import datetime as dt
import json
import random
import re
import urllib.request

from benchmark_lists import measure, print_table, sign_in


def api(base, token, method, path, body=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read() or b"null")


def make_lists(base, email, password, lists, logs_per_list):
    """`lists` lists for the benchmark organizer, each from one area's participants, and some visits logged on each."""
    token = api(base, "", "POST", "/api/v1/auth/login", {"email": email, "password": password})["access_token"]
    me = next(user for user in api(base, token, "GET", "/api/v1/users?per_page=500")["items"] if user["email"] == email)
    # Lists as organizers make them: one neighbourhood or community each, not a whole city.
    areas = [area["id"] for area in api(base, token, "GET", "/api/v1/areas?per_page=500")["items"]
             if area["area_type"] in ("NEIGHBOURHOOD", "COMMUNITY")]
    rng = random.Random(1)
    today = dt.date.today()
    made = []
    for index in range(lists):
        day = (today + dt.timedelta(days=index % 40 - 10)).isoformat()
        visit_list = api(base, token, "POST", "/api/v1/visit-lists", {"name": f"Round {index}", "visit_date": day,
                                                                       "assigned_user_id": me["id"], "status": "PLANNED"})
        total = api(base, token, "POST", f"/api/v1/visit-lists/{visit_list['id']}/stops/from-filter",
                    {"source": "participants", "area_id": rng.choice(areas)})["stops_total"]
        stops = api(base, token, "GET", f"/api/v1/visit-lists/{visit_list['id']}/stops?per_page=500")["items"]
        for stop in rng.sample(stops, min(logs_per_list, len(stops))):
            api(base, token, "POST", f"/api/v1/visit-lists/{visit_list['id']}/stops/{stop['id']}/logs",
                {"result": rng.choice(["MET", "NOT_HOME", "REFUSED", "FOLLOW_UP"]), "note": ""})
        made.append((visit_list["id"], total))
    return made


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--email", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--lists", type=int, default=200)
    parser.add_argument("--logs-per-list", type=int, default=10)
    args = parser.parse_args()
    made = make_lists(args.base, args.email, args.password, args.lists, args.logs_per_list)
    biggest, size = max(made, key=lambda item: item[1])
    print(f"== {len(made)} lists, {sum(n for _, n in made)} stops, the biggest list has {size} stops")
    opener, cookie = sign_in(args.base, args.email, args.password)
    walk = opener.open(f"{args.base}/visit-lists/{biggest}/walk").read().decode()
    venue = re.search(r'name="from"[^>]*>\s*<option value=""[^>]*>[^<]*</option>\s*<option value="([0-9a-f-]{36})"', walk).group(1)
    stop = re.search(rf"/visit-lists/{biggest}/stops/([0-9a-f-]{{36}})", walk).group(1)
    pages = ["/visit-lists", "/visit-lists?page=3", "/my-visits", f"/visit-lists/{biggest}",
             f"/visit-lists/{biggest}/walk?sort=distance&from={venue}", f"/visit-lists/{biggest}/walk?sort=address",
             f"/visit-lists/{biggest}/stops/{stop}", f"/visit-lists/{biggest}/print", f"/visit-lists/{biggest}/results.csv",
             "/api/v1/visit-lists", f"/api/v1/visit-lists/{biggest}/stops?per_page=100",
             "/participants", "/venues"]  # the last two: existing list pages on the same machine, for comparison
    print_table(measure(opener, cookie, args.base, pages))


if __name__ == "__main__":
    main()
