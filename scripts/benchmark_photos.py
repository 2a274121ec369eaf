"""Measures photos (issue 14) through the pages as a person would: uploads of a 50-megapixel JPEG and of a small phone
photo with GPS tags (each judged, decoded, turned upright and re-encoded as a display size and a thumbnail), the
gallery page of a participant with photos, and the display files served from their descriptors. Called by
scripts/benchmark-photos.sh."""
import io
import pathlib
import re
import statistics
import time

from benchmark_lists import PeakSampler, resident_mb, server_arguments, signed_in


def camera_photo(width, height):
    """A JPEG as a camera writes one: grain in every channel (so it compresses as a photo does, not as a flat colour),
    at quality 92, with EXIF GPS tags and an orientation."""
    from PIL import Image
    grain = [Image.effect_noise((width, height), sigma) for sigma in (30, 45, 60)]
    light = Image.linear_gradient("L").resize((width, height))
    picture = Image.merge("RGB", [Image.blend(light, noise, 0.5) for noise in grain])
    exif = Image.Exif()
    exif[0x0112] = 1
    gps = exif.get_ifd(0x8825)
    gps[1], gps[2], gps[3], gps[4] = "N", (51.0, 30.0, 26.0), "W", (0.0, 7.0, 39.0)
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=92, exif=exif.tobytes())
    return out.getvalue()


def upload(session, base, person, content, name):
    form = session.get(f"{base}/photos/new?participant_id={person}").text
    token = re.search(r'name="csrf_token" value="([^"]*)"', form).group(1)
    started = time.perf_counter()
    answer = session.post(base + "/photos", data={"csrf_token": token, "participant_id": person, "caption": f"Benchmark {name}"},
                          files={"photo": (name, content, "image/jpeg")}, allow_redirects=False)
    seconds = time.perf_counter() - started
    if answer.status_code != 303:
        raise SystemExit(f"upload answered {answer.status_code}: {answer.text[:300]}")
    return seconds


def timed_uploads(session, args, person, content, name, count):
    before = resident_mb(args.pid)
    sampler = PeakSampler(args.pid).start()
    times = [upload(session, args.base, person, content, f"{name}-{index}.jpg") for index in range(count)]
    peak, peak_anonymous = sampler.stop()
    print(f"{count} uploads of {name} ({len(content) / 1e6:.1f} MB): median {statistics.median(times) * 1000:.0f} ms, "
          f"slowest {max(times) * 1000:.0f} ms; server memory grew at most RSS {peak - before[0]:.1f} MB, "
          f"anonymous {peak_anonymous - before[1]:.1f} MB; after them {resident_mb(args.pid)[1] - before[1]:.1f} MB anonymous")


def main():
    parser = server_arguments()
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--fixtures", required=True)
    args = parser.parse_args()
    fixtures = pathlib.Path(args.fixtures)
    session = signed_in(args.base, args)
    person = re.search(r'href="/participants/([0-9a-f-]{36})"', session.get(args.base + "/participants").text).group(1)
    timed_uploads(session, args, person, camera_photo(4032, 3024), "a 12-megapixel camera photo with GPS tags", 20)
    timed_uploads(session, args, person, camera_photo(8660, 5774), "a 50-megapixel camera photo", 5)
    timed_uploads(session, args, person, (fixtures / "fifty-megapixels.jpg").read_bytes(), "the 50-megapixel test fixture (one colour)", 5)

    started = time.perf_counter()
    gallery = session.get(f"{args.base}/participants/{person}").text
    print(f"participant page with {gallery.count('gallery__item')} photos: {(time.perf_counter() - started) * 1000:.0f} ms")
    photo = re.findall(r'href="(/photos/[0-9a-f-]{36})"', gallery)[0]
    display = re.search(r'src="(/photo-files/[0-9a-f]{64})"', session.get(args.base + photo).text).group(1)
    count, started, size = 500, time.perf_counter(), 0
    for _ in range(count):
        size = len(session.get(args.base + display).content)
    seconds = time.perf_counter() - started
    print(f"display file ({size / 1024:.0f} KB) fetched {count} times on one connection: {count / seconds:,.0f} per second")
    again = session.get(args.base + display, headers={"If-None-Match": f'"{display.rsplit("/", 1)[1]}"'})
    print(f"conditional request for it: {again.status_code}")


if __name__ == "__main__":
    main()
