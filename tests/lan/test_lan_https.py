"""HTTPS on the LAN with Fieldbook's own certificate authority (issue 38), between real hosts: two network namespaces
made here and joined by a veth link, the server in one (host name "fieldhall", set in its own UTS namespace) and a
tablet in the other, whose headless Chromium trusts the authority through its NSS database (certutil). The server
certificate is made valid for seconds and checked every second, so that its renewal and an address change are seen
within the test. Needs root; skipped with the reason otherwise.

    FIELDBOOK_BIN=$PWD/.build/debug/fieldbook $VENV/bin/python -m pytest tests/lan -q -rs
"""
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

HOST_NAME = "fieldhall"
SERVER_V4, TABLET_V4 = "10.213.0.1", "10.213.0.2"
# The network both move to (another Wi-Fi, a new lease): another subnet, as deleting an address takes the others of its
# subnet with it.
MOVED_V4, TABLET_MOVED_V4 = "10.214.0.1", "10.214.0.2"
SERVER_V6, TABLET_V6 = "fd38:f1e1::1", "fd38:f1e1::2"
HTTPS_PORT, PLAIN_PORT = 8443, 8080
# Seconds a server certificate is valid here: renewed once a third is left, so about 8 s after it was made.
VALIDITY = 12
TOOLS = ("ip", "unshare", "certutil", "openssl", "curl", "/usr/bin/chromium", "/usr/bin/chromedriver")


def run(*command, check=True, **options):
    return subprocess.run(command, check=check, capture_output=True, text=True, **options)


def why_skipped():
    if os.geteuid() != 0:
        return "needs root to make network namespaces (ip netns) and a veth link"
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        return f"missing {', '.join(missing)} (scripts/install-test-tools.sh installs them)"
    if not os.environ.get("FIELDBOOK_BIN"):
        return "FIELDBOOK_BIN is not set"
    return None


class Lan:
    """The two hosts, the server's data folder and its process."""

    def __init__(self):
        suffix = str(os.getpid())
        self.server_ns, self.tablet_ns = f"fbsrv{suffix}", f"fbtab{suffix}"
        self.server_link, self.tablet_link = f"fs{suffix}"[:15], f"ft{suffix}"[:15]
        self.folder = pathlib.Path(tempfile.mkdtemp(prefix="fieldbook-lan-"))
        self.data = self.folder / "data"
        self.authority = self.data / "tls" / "authority.pem"
        self.home = self.folder / "tablet-home"
        self.process = None
        self.log = None

    @staticmethod
    def remove_stale_hosts():
        """Deletes the namespaces (and with them their veth ends) of an earlier run that was killed before its own
        clean-up: named after that run's pid, which no longer runs."""
        listed = run("ip", "netns", "list", check=False).stdout
        for name, pid in re.findall(r"^(fb(?:srv|tab)(\d+))\b", listed, re.MULTILINE):
            if not pathlib.Path(f"/proc/{pid}").exists():
                run("ip", "netns", "delete", name, check=False)

    def make_hosts(self):
        self.remove_stale_hosts()
        run("ip", "netns", "add", self.server_ns)
        run("ip", "netns", "add", self.tablet_ns)
        run("ip", "link", "add", self.server_link, "netns", self.server_ns, "type", "veth", "peer", "name", self.tablet_link,
            "netns", self.tablet_ns)
        for namespace, link, v4, v6 in ((self.server_ns, self.server_link, SERVER_V4, SERVER_V6),
                                        (self.tablet_ns, self.tablet_link, TABLET_V4, TABLET_V6)):
            run("ip", "-n", namespace, "link", "set", "lo", "up")
            run("ip", "-n", namespace, "addr", "add", f"{v4}/24", "dev", link)
            run("ip", "-n", namespace, "-6", "addr", "add", f"{v6}/64", "dev", link, "nodad")
            run("ip", "-n", namespace, "link", "set", link, "up")

    def start_server(self):
        from check_reflow import prepare
        binary = os.path.abspath(os.environ["FIELDBOOK_BIN"])
        env = dict(os.environ, FIELDBOOK_PASSWORD_COST="test", FIELDBOOK_TLS_VALIDITY=str(VALIDITY), FIELDBOOK_TLS_CHECK_INTERVAL="1")
        prepare(str(self.data), env, binary)
        self.log = open(self.folder / "server.log", "w+")
        self.process = subprocess.Popen(
            ["ip", "netns", "exec", self.server_ns, "unshare", "--uts", "sh", "-c", f'hostname {HOST_NAME} && exec "$0" "$@"',
             binary, "serve", "--host", "0.0.0.0", "--port", str(HTTPS_PORT), "--http-port", str(PLAIN_PORT), "--data",
             str(self.data), "--resources", str(ROOT)], stdout=subprocess.PIPE, stderr=self.log, text=True, env=env)
        deadline = time.time() + 60
        self.announced = []
        while time.time() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.announced.append(line.strip())
            if line.startswith("Fieldbook is serving at"):
                return
        raise AssertionError("the server did not start: " + "\n".join(self.announced) + self.server_log())

    def server_log(self):
        self.log.flush()
        return pathlib.Path(self.log.name).read_text()

    def trust_authority_on_tablet(self):
        nssdb = self.home / ".pki" / "nssdb"
        nssdb.mkdir(parents=True)
        run("certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password")
        run("certutil", "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "Fieldbook", "-i", str(self.authority))

    def on_tablet(self, *command, timeout=60):
        env = dict(os.environ, HOME=str(self.home), NO_PROXY="*", no_proxy="*")
        for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
            env.pop(name, None)
        # A session of its own, so that a timeout ends the whole group (the tablet's chromedriver and Chromium too),
        # not only the command, which would leave them running for the next test to meet.
        with subprocess.Popen(["ip", "netns", "exec", self.tablet_ns, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env, start_new_session=True) as process:
            try:
                stdout, stderr = process.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.communicate()
                raise
        return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)

    def browse(self, what, base, *resolve):
        arguments = [f"--resolve={item}" for item in resolve]
        done = self.on_tablet(sys.executable, str(ROOT / "tests" / "lan" / "tablet.py"), what, base, str(self.authority),
                              *arguments, timeout=240)
        assert done.returncode == 0, f"the tablet's Chromium failed:\n{done.stderr[-3000:]}"
        return json.loads(done.stdout.strip().splitlines()[-1])

    def served_certificate(self, address):
        """The certificate served at address, as openssl prints it, and whether it verifies against the authority alone
        for that address."""
        shown = self.on_tablet("sh", "-c", f"openssl s_client -connect {address}:{HTTPS_PORT} -CAfile {self.authority} "
                                            f"-verify_ip {address} -verify_return_error </dev/null 2>&1 | "
                                            "openssl x509 -noout -serial -ext subjectAltName 2>&1; "
                                            f"openssl s_client -connect {address}:{HTTPS_PORT} -CAfile {self.authority} "
                                            f"-verify_ip {address} -verify_return_error </dev/null >/dev/null 2>&1 && echo VERIFIED")
        return shown.stdout

    def stop(self):
        if self.process:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for namespace in (self.server_ns, self.tablet_ns):
            run("ip", "netns", "delete", namespace, check=False)


@pytest.fixture(scope="module")
def lan():
    reason = why_skipped()
    if reason and os.environ.get("FIELDBOOK_LAN_REQUIRED") == "1":
        pytest.fail(f"FIELDBOOK_LAN_REQUIRED=1 but {reason}")
    if reason:
        pytest.skip(reason)
    lan = Lan()
    try:
        lan.make_hosts()
        lan.start_server()
        lan.trust_authority_on_tablet()
        yield lan
    finally:
        lan.stop()
        shutil.rmtree(lan.folder, ignore_errors=True)


def serial(shown):
    match = re.search(r"serial=([0-9A-F]+)", shown)
    return match.group(1) if match else None


def announced_by_avahi(lan):
    """Whether serve is announced: the .local name is offered (start-up line, plain guide, Add a device page) only
    then. This test starts no Avahi; the certificate names the .local name either way."""
    return 'Announced "Fieldbook on' in lan.server_log()


def test_the_authority_is_made_on_first_start_its_key_for_the_service_alone(lan):
    folder = lan.data / "tls"
    assert lan.authority.read_text().startswith("-----BEGIN CERTIFICATE-----")
    assert oct((folder / "authority-key.pem").stat().st_mode & 0o777) == "0o600"
    assert oct((folder / "server-key.pem").stat().st_mode & 0o777) == "0o600"
    opened = next((line for line in lan.announced if "SHA-256" in line), "")
    assert f"https://{SERVER_V4}:{HTTPS_PORT}/" in opened, lan.announced
    assert ("fieldhall.local" in opened) == announced_by_avahi(lan), lan.announced


def test_the_server_certificate_names_the_machine_and_verifies_against_the_authority_alone(lan):
    shown = lan.served_certificate(SERVER_V4)
    assert "VERIFIED" in shown, shown
    for name in ("DNS:fieldhall", "DNS:fieldhall.local", f"IP Address:{SERVER_V4}", "IP Address:FD38:F1E1:0:0:0:0:0:1"):
        assert name in shown, shown


def refused_by_the_server(shown):
    """The client sent its hello and the server answered nothing: a client that could not offer the version or cipher
    at all writes nothing, and must not pass for the server's refusal."""
    return re.search(r"has read 0 bytes and written [1-9][0-9]* bytes", shown) is not None


def test_only_tls_1_2_and_1_3_with_forward_secret_aead_ciphers(lan):
    for version, accepted in (("-tls1_3", True), ("-tls1_2", True), ("-tls1_1", False), ("-tls1", False)):
        done = lan.on_tablet("sh", "-c", f"openssl s_client -connect {SERVER_V4}:{HTTPS_PORT} {version} -cipher DEFAULT@SECLEVEL=0 -CAfile {lan.authority} "
                                         "</dev/null 2>&1")
        if accepted:
            assert "Cipher is" in done.stdout and "Cipher is (NONE)" not in done.stdout, (version, done.stdout[-800:])
        else:
            assert refused_by_the_server(done.stdout), (version, done.stdout[-800:])
    weak = lan.on_tablet("sh", "-c", f"openssl s_client -connect {SERVER_V4}:{HTTPS_PORT} -tls1_2 -cipher ECDHE-ECDSA-AES128-SHA@SECLEVEL=0 "
                                     f"-CAfile {lan.authority} </dev/null 2>&1")
    assert refused_by_the_server(weak.stdout), weak.stdout[-800:]


def test_plain_http_gives_the_secure_address_and_the_authority(lan):
    page = lan.on_tablet("curl", "-sS", f"http://{SERVER_V4}:{PLAIN_PORT}/participants")
    assert page.returncode == 0, page.stderr
    first = re.search(r'<a href="(https://[^"]+)">', page.stdout)
    assert first and first.group(1) == f"https://{SERVER_V4}:{HTTPS_PORT}/", page.stdout[:2000]
    assert (f"https://fieldhall.local:{HTTPS_PORT}/" in page.stdout) == announced_by_avahi(lan)
    authority = lan.on_tablet("curl", "-sS", f"http://{SERVER_V4}:{PLAIN_PORT}/fieldbook-authority.pem")
    assert authority.stdout == lan.authority.read_text()
    form = lan.on_tablet("curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-d", "email=a&password=b",
                         f"http://{SERVER_V4}:{PLAIN_PORT}/login")
    assert form.stdout == "403", "plain HTTP takes no form"


def test_session_cookies_are_secure_and_no_hsts_is_sent_with_its_own_authority(lan):
    from check_pages import PASSWORD, USERS
    jar = lan.folder / "cookies.txt"
    base = f"https://{SERVER_V4}:{HTTPS_PORT}"
    login = lan.on_tablet("curl", "-sS", "--cacert", str(lan.authority), "-c", str(jar), "-D", "-", "-o", "/dev/null", base + "/login")
    assert "strict-transport-security" not in login.stdout.lower(), "no HSTS with Fieldbook's own authority"
    token = re.search(r'name="csrf_token" value="([^"]*)"',
                      lan.on_tablet("curl", "-sS", "--cacert", str(lan.authority), "-b", str(jar), "-c", str(jar), base + "/login").stdout)
    signed_in = lan.on_tablet("curl", "-sS", "--cacert", str(lan.authority), "-b", str(jar), "-c", str(jar), "-D", "-", "-o", "/dev/null",
                              "--data-urlencode", f"email={USERS['editor'][1]}", "--data-urlencode", f"password={PASSWORD}",
                              "--data-urlencode", f"csrf_token={token.group(1) if token else ''}", base + "/login")
    cookies = [line for line in signed_in.stdout.splitlines() if line.lower().startswith("set-cookie:")]
    session = [line for line in cookies if "fieldbook_session=" in line and "Max-Age=0" not in line]
    assert session and all("; secure" in line.lower() for line in cookies), signed_in.stdout


def test_the_tablet_is_a_secure_context_at_the_address_and_the_local_name_and_walks_nearest_first(lan):
    walked = lan.browse("walk", f"https://{SERVER_V4}:{HTTPS_PORT}")
    assert walked["secure_context"] and walked["https"], walked
    assert walked["location_offered"], "the walk page offers the location in a secure context"
    assert "sort=distance" in walked["after_url"] and "lat=" in walked["after_url"], walked
    houses = [stop for stop in walked["stops"] if "Neighbour" in stop]
    assert houses and "Neighbour 2" in houses[0], walked["stops"]
    named = lan.browse("open", f"https://fieldhall.local:{HTTPS_PORT}", f"fieldhall.local={SERVER_V4}")
    assert named["secure_context"] and named["https"] and named["signed_in"], named


def test_renewed_before_it_ends_and_a_tablet_that_trusted_the_authority_keeps_working(lan):
    first = serial(lan.served_certificate(SERVER_V4))
    deadline = time.time() + VALIDITY + 5
    renewed = first
    while time.time() < deadline and renewed == first:
        time.sleep(1)
        renewed = serial(lan.served_certificate(SERVER_V4))
    assert renewed and renewed != first, f"still {first} after {VALIDITY + 5} s; log:\n{lan.server_log()[-2000:]}"
    assert "expires soon" in lan.server_log()
    assert lan.process.poll() is None, "renewed without a restart"
    again = lan.browse("open", f"https://{SERVER_V4}:{HTTPS_PORT}")
    assert again["secure_context"] and again["signed_in"], again


def test_a_new_address_is_served_within_seconds_and_trusted_without_anything_new(lan):
    run("ip", "-n", lan.tablet_ns, "addr", "add", f"{TABLET_MOVED_V4}/24", "dev", lan.tablet_link)
    run("ip", "-n", lan.server_ns, "addr", "add", f"{MOVED_V4}/24", "dev", lan.server_link)
    run("ip", "-n", lan.server_ns, "addr", "del", f"{SERVER_V4}/24", "dev", lan.server_link)
    deadline = time.time() + 10
    shown = ""
    while time.time() < deadline and "VERIFIED" not in shown:
        time.sleep(1)
        shown = lan.served_certificate(MOVED_V4)
    assert "VERIFIED" in shown and f"IP Address:{SERVER_V4}" not in shown, shown
    assert "names or addresses changed" in lan.server_log()
    moved = lan.browse("open", f"https://{MOVED_V4}:{HTTPS_PORT}")
    assert moved["secure_context"] and moved["signed_in"], moved
