#!/usr/bin/env python3
"""The Home Assistant ring: nfctap's MQTT station against a real, unmodified Home Assistant core.

Run by scripts/ha-ring.sh with the Python of a venv that holds Home Assistant (it brings aiohttp,
used here for HA's REST and websocket APIs, and paho-mqtt, used for a passive broker monitor).

What it starts, all on 127.0.0.1, all in one temporary directory:
  - its own mosquitto (no persistence: a broker restart loses retained messages, as a real one
    without persistence would);
  - Home Assistant (`hass --skip-pip`) with a minimal configuration.yaml, set up through its own
    APIs: the onboarding API makes the owner and gives an access token, the config flow API adds
    the MQTT integration (HA's birth and last will stay at their defaults);
  - `nfctap fleet forward FILE --publish mqtt://…/nfctap/site/ring/taps --homeassistant`, the
    station; a tap is one JSON line appended to FILE.

It watches HA's websocket (tag_scanned events, the device registry) and checks, scenario by
scenario, that every tap reaches HA as exactly one tag_scanned event, with the right tag_id (the
record's haTag when it has one, else its uid) and the station's device_id:
  a. new station      the forwarder started and a tap at once;
  b. HA tag id        a tap with haTag;
  c. broker restart   a tap while mosquitto is down, then mosquitto again on the same port;
  d. HA restart       a tap while HA is down, then HA again (same config, same token);
  e. station restart  a tap while the forwarder is stopped, then the forwarder again;
  f. second file      another record file of the same station (another forwarder, same URL):
                      still one HA device, one event per tap.

Prints one line per scenario (ok/FAIL, detail, seconds), then a plain `ha-ring: N passed,
N failed` line. Exit status 1 when any scenario failed (or the ring ran out of time), else 0.
Everything it started is stopped on any exit, Ctrl-C included; children also die with it
(PR_SET_PDEATHSIG) if it is killed outright.
"""

from __future__ import annotations

import argparse
import asyncio
import calendar
import ctypes
import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import paho.mqtt.client as paho

# ---- limits (seconds) ----
RING_TIME_LIMIT = 240  # the whole ring, setup included (the install is not)
ARRIVAL_TIMEOUT = 60  # how long a tap may take to reach HA
DUPLICATE_WINDOW = 3  # how long to wait after the last arrival for duplicates
HA_START_TIMEOUT = 90  # process start until the HTTP API answers
HA_STOP_TIMEOUT = 60  # SIGTERM until exit (then SIGKILL)
PROCESS_STOP_TIMEOUT = 15  # the same for mosquitto and the forwarders
REQUEST_TIMEOUT = 15  # one REST or websocket request

SITE, STATION = "site", "ring"
DISCOVERY_PREFIX = "homeassistant"
HA_STATUS_TOPIC = "homeassistant/status"  # HA's default birth and last will topic

RING_START = time.monotonic()


def log(message: str) -> None:
    """A progress line on stderr, with the seconds since the ring started."""
    print(f"[{time.monotonic() - RING_START:6.1f}s] {message}", file=sys.stderr, flush=True)


class RingError(Exception):
    """A failure the ring cannot go on from, with a message for the reader."""


class ScenarioFailed(Exception):
    """A scenario's check failed; the message says which taps and how."""


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------


def free_port(taken: set[int]) -> int:
    """A TCP port nobody listens on at 127.0.0.1 now, not in `taken`."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in taken:
            taken.add(port)
            return port


def port_open(port: int) -> bool:
    """True when something accepts TCP connections on 127.0.0.1:port."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def tail(path: Path, lines: int = 40, skip=lambda line: False) -> str:
    """The last lines of a text file but those `skip` says, indented; or why there are none."""
    try:
        text = [line for line in path.read_text(errors="replace").splitlines() if not skip(line)]
    except OSError as error:
        return f"    ({path}: {error.strerror})"
    return "\n".join("    " + line[:300] for line in text[-lines:]) or f"    ({path} is empty)"


def _die_with_parent() -> None:
    """In a child before exec: SIGKILL when the ring's process dies, however it dies."""
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_PDEATHSIG = 1
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


async def wait_until(predicate, timeout: float, what: str, interval: float = 0.1, check=None):
    """Polls `predicate` (a plain function) until it is true; RingError naming `what` after
    `timeout` s. `check`, if given, is called every round and may raise (a process died)."""
    deadline = time.monotonic() + timeout
    while True:
        if check:
            check()
        if predicate():
            return
        if time.monotonic() >= deadline:
            raise RingError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(interval)


# ---------------------------------------------------------------------------------------------
# Child processes
# ---------------------------------------------------------------------------------------------


class Child:
    """One process the ring started: output to a log file, its own session (a Ctrl-C on the
    terminal reaches the ring only, which stops its children in order), killed with the ring."""

    def __init__(self, name: str, argv: list[str], log_path: Path, env: dict | None = None):
        self.name, self.argv, self.log_path, self.env = name, argv, log_path, env
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        with open(self.log_path, "ab") as out:
            self.proc = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=asyncio.subprocess.STDOUT,
                env=self.env,
                start_new_session=True,
                preexec_fn=_die_with_parent,
            )

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def check_running(self) -> None:
        """RingError when the process has exited, with its log's tail."""
        if self.proc is not None and self.proc.returncode is not None:
            raise RingError(f"{self.name} exited with status {self.proc.returncode}:\n{tail(self.log_path)}")

    async def stop(self, timeout: float = PROCESS_STOP_TIMEOUT) -> float:
        """SIGTERM, then SIGKILL after `timeout` s. Returns the seconds it took."""
        started = time.monotonic()
        if self.running:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except asyncio.TimeoutError:
                log(f"{self.name} did not stop within {timeout:.0f} s of SIGTERM: SIGKILL")
                self.proc.kill()
                await self.proc.wait()
        return time.monotonic() - started

    def kill_now(self) -> None:
        """Last-resort cleanup: SIGKILL, no waiting."""
        if self.running:
            self.proc.kill()


# ---------------------------------------------------------------------------------------------
# The broker, and a passive monitor of what crosses it
# ---------------------------------------------------------------------------------------------


class Broker:
    """A private mosquitto on 127.0.0.1:port, restartable on the same port."""

    def __init__(self, directory: Path, port: int):
        self.directory, self.port = directory, port
        directory.mkdir()
        self.conf = directory / "mosquitto.conf"
        self.log_path = directory / "mosquitto.log"
        self.conf.write_text(
            "# nfctap's Home Assistant ring: loopback only, nothing kept across a restart.\n"
            f"listener {port} 127.0.0.1\n"
            "allow_anonymous true\n"
            "persistence false\n"
            f"user {pwd.getpwuid(os.getuid()).pw_name}\n"
            "log_dest stdout\n"
            "log_type error\nlog_type warning\nlog_type notice\nlog_type information\n"
            "log_type subscribe\n"
            "log_timestamp_format %H:%M:%S\n"  # (the ring's own times are in mqtt-traffic.log)
        )
        self.child = Child("mosquitto", ["/usr/sbin/mosquitto", "-c", str(self.conf)], self.log_path)

    async def start(self) -> None:
        await self.child.start()
        await wait_until(lambda: port_open(self.port), 10, f"mosquitto on 127.0.0.1:{self.port}",
                         check=self.child.check_running)

    async def stop(self) -> None:
        await self.child.stop()


@dataclass
class Message:
    at: float  # time.time()
    topic: str
    retained: bool
    payload: str


class Monitor:
    """A paho client subscribed to '#': what HA and the station publish, with times (for
    diagnostics and the timings report only; no check depends on it), also written to
    `log_path`. Reconnects by itself."""

    def __init__(self, port: int, log_path: Path):
        self.port = port
        self.log = open(log_path, "a", buffering=1)
        self.messages: list[Message] = []
        self._lock = threading.Lock()
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="nfctap-ring-monitor")
        self.client.reconnect_delay_set(min_delay=1, max_delay=2)
        self.client.on_connect = lambda client, *_: client.subscribe("#", qos=1)
        self.client.on_message = self._on_message

    def _on_message(self, _client, _userdata, msg) -> None:
        message = Message(time.time(), msg.topic, bool(msg.retain), msg.payload.decode(errors="replace"))
        with self._lock:
            self.messages.append(message)
            self.log.write(f"+{time.monotonic() - RING_START:7.2f}s {message.topic}"
                           f"{' (retained)' if message.retained else ''} {message.payload}\n")

    def start(self) -> None:
        self.client.connect_async("127.0.0.1", self.port, keepalive=10)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        self.log.close()

    def since(self, wall: float) -> list[Message]:
        with self._lock:
            return [m for m in self.messages if m.at >= wall]

    def copies_for_ha(self, tag_id: str) -> int:
        """How many messages crossed the broker carrying tag_id as HA's tagId (the station's
        payload for HA's topic): more than one is a duplicate waiting to happen, whether or not
        HA happened to be subscribed to each."""
        needle = f'"tagId":"{tag_id}"'
        with self._lock:
            return sum(1 for m in self.messages if needle in m.payload.replace(" ", ""))

    def births(self, since: float = 0.0) -> list[float]:
        """When HA published its birth ('online' on homeassistant/status)."""
        return [m.at for m in self.since(since) if m.topic == HA_STATUS_TOPIC and m.payload == "online"]


# ---------------------------------------------------------------------------------------------
# Home Assistant: process, REST, websocket
# ---------------------------------------------------------------------------------------------

CONFIGURATION_YAML = """\
# Home Assistant for nfctap's ring: loopback only, no default_config; what the ring uses:
# REST (api), config entries and flows (config), websocket, onboarding (the owner and the
# token), tags. MQTT is added through the config flow, not here.
homeassistant:
  name: nfctap ring
  time_zone: UTC
  unit_system: metric
  country: DE
  currency: EUR
  latitude: 52.52
  longitude: 13.40
  elevation: 0
http:
  server_host: 127.0.0.1
  server_port: {port}
api:
config:
websocket_api:
onboarding:
tag:
logger:
  default: warning
  logs:
    homeassistant.bootstrap: info
    homeassistant.components.mqtt: debug
    homeassistant.components.tag: debug
"""


class HomeAssistant:
    """A Home Assistant core in its own config directory, started and stopped at will."""

    def __init__(self, venv: Path, config_dir: Path, port: int):
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.config_dir = config_dir
        config_dir.mkdir()
        (config_dir / "configuration.yaml").write_text(CONFIGURATION_YAML.format(port=port))
        self.log_path = config_dir / "home-assistant.log"
        env = dict(os.environ, TZ="UTC")  # HA's log times are then UTC, as the ring parses them
        self.child = Child(
            "Home Assistant",
            [str(venv / "bin" / "hass"), "-c", str(config_dir), "--skip-pip"],
            config_dir / "hass.stdout",
            env,
        )
        self.token: str | None = None
        self.refresh_token: str | None = None

    @property
    def client_id(self) -> str:
        return self.base + "/"

    @staticmethod
    def log_noise(line: str) -> bool:
        """MQTT debug lines of no use here: socket bookkeeping, other integrations' topics."""
        if "register write" in line or "register read" in line:
            return True
        return "Subscribing with mid" in line and "nfctap" not in line and "homeassistant/" not in line

    def log_tail(self, lines: int = 40) -> str:
        return f"  Home Assistant's log ({self.log_path}):\n{tail(self.log_path, lines, self.log_noise)}"

    async def start(self, session: aiohttp.ClientSession) -> float:
        """Starts hass and waits until its HTTP API answers. Returns the seconds it took."""
        started = time.monotonic()
        await self.child.start()
        deadline = started + HA_START_TIMEOUT
        while True:
            self.child.check_running()
            try:
                # /api/onboarding needs no token: it answers as soon as HTTP is up.
                async with session.get(self.base + "/api/onboarding",
                                       timeout=aiohttp.ClientTimeout(total=2)) as response:
                    if response.status == 200:
                        return time.monotonic() - started
            except (aiohttp.ClientError, asyncio.TimeoutError):
                pass
            if time.monotonic() >= deadline:
                raise RingError(f"Home Assistant's API did not answer within {HA_START_TIMEOUT} s\n"
                                + self.log_tail())
            await asyncio.sleep(0.2)

    async def stop(self) -> float:
        return await self.child.stop(HA_STOP_TIMEOUT)

    async def request(self, session, method: str, path: str, *, json_body=None, form=None,
                      auth: bool = True) -> tuple[int, object]:
        """One REST request: (status, decoded JSON or text)."""
        headers = {"Authorization": f"Bearer {self.token}"} if auth and self.token else {}
        async with session.request(method, self.base + path, json=json_body, data=form,
                                   headers=headers,
                                   timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)) as response:
            text = await response.text()
            try:
                return response.status, json.loads(text)
            except ValueError:
                return response.status, text

    async def onboard(self, session) -> None:
        """The onboarding API's user step makes the owner and answers an auth code, which
        /auth/token turns into an access token (valid 30 minutes) and a refresh token."""
        status, body = await self.request(session, "POST", "/api/onboarding/users", auth=False, json_body={
            "client_id": self.client_id, "name": "Ring", "username": "ring",
            "password": secrets.token_hex(12), "language": "en",
        })
        if status != 200 or "auth_code" not in body:
            raise RingError(f"onboarding (POST /api/onboarding/users) answered {status}: {body}")
        status, body = await self.request(session, "POST", "/auth/token", auth=False, form={
            "grant_type": "authorization_code", "code": body["auth_code"], "client_id": self.client_id,
        })
        if status != 200 or "access_token" not in body:
            raise RingError(f"POST /auth/token answered {status}: {body}")
        self.token, self.refresh_token = body["access_token"], body["refresh_token"]

    async def ensure_token(self, session) -> str:
        """Checks the access token on GET /api/; refreshes it if HA refuses it. Says which."""
        status, _ = await self.request(session, "GET", "/api/")
        if status == 200:
            return "token still valid"
        status, body = await self.request(session, "POST", "/auth/token", auth=False, form={
            "grant_type": "refresh_token", "refresh_token": self.refresh_token, "client_id": self.client_id,
        })
        if status != 200 or "access_token" not in body:
            raise RingError(f"HA refused the token after its restart and the refresh ({status}: {body})")
        self.token = body["access_token"]
        return "token refused, refreshed"

    async def wait_running(self, session, timeout: float = 60) -> None:
        """Until GET /api/config says RUNNING (every integration set up)."""
        deadline = time.monotonic() + timeout
        while True:
            self.child.check_running()
            status, body = await self.request(session, "GET", "/api/config")
            if status == 200 and body.get("state") == "RUNNING":
                return
            if time.monotonic() >= deadline:
                raise RingError(f"Home Assistant not RUNNING after {timeout:.0f} s ({status}: {body})\n"
                                + self.log_tail())
            await asyncio.sleep(0.2)

    async def add_mqtt(self, session, broker_port: int) -> None:
        """The MQTT integration through HA's own config flow: handler mqtt, step broker."""
        status, body = await self.request(session, "POST", "/api/config/config_entries/flow",
                                          json_body={"handler": "mqtt", "show_advanced_options": False})
        if status != 200 or body.get("type") != "form" or body.get("step_id") != "broker":
            raise RingError(f"the MQTT config flow did not offer its broker form ({status}: {body})")
        status, body = await self.request(session, "POST", f"/api/config/config_entries/flow/{body['flow_id']}",
                                          json_body={"broker": "127.0.0.1", "port": broker_port})
        if status != 200 or body.get("type") != "create_entry":
            raise RingError(f"the MQTT config flow did not create an entry ({status}: {body})\n" + self.log_tail())

    def log_text(self) -> str:
        """HA's log of this run and of the run before (HA renames it .log.1 when it starts)."""
        text = ""
        for path in (self.log_path.with_name(self.log_path.name + ".1"), self.log_path):
            try:
                text += path.read_text(errors="replace")
            except OSError:
                pass
        return text

    def scans_logged(self, tag_id: str) -> int:
        """How often HA's tag integration logged a scan of tag_id (its debug line)."""
        return self.log_text().count(f"Tag: {tag_id} scanned by device:")

    def subscriptions_logged(self, topic: str) -> list[float]:
        """When HA's MQTT client subscribed to `topic` (its debug lines), as time.time()."""
        times = []
        for line in self.log_text().splitlines():
            if "Subscribing with mid" in line and f"'{topic}'" in line:
                stamp = line[:23]  # "2026-12-02 10:00:00.123", UTC (TZ=UTC)
                try:
                    times.append(calendar.timegm(time.strptime(stamp[:19], "%Y-%m-%d %H:%M:%S"))
                                 + int(stamp[20:23]) / 1000)
                except ValueError:
                    pass
        return times


@dataclass
class Event:
    at: float  # time.monotonic()
    tag_id: str
    device_id: str | None


class HAWebSocket:
    """HA's websocket API: auth, commands with results, tag_scanned events into `events`."""

    def __init__(self, events: list[Event]):
        self.events = events
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.reader: asyncio.Task | None = None
        self.pending: dict[int, asyncio.Future] = {}
        self.next_id = 1

    async def connect(self, session, ha: HomeAssistant) -> None:
        self.ws = await session.ws_connect(ha.base.replace("http", "ws", 1) + "/api/websocket",
                                           timeout=aiohttp.ClientWSTimeout(ws_close=5))
        hello = await self.ws.receive_json(timeout=REQUEST_TIMEOUT)
        if hello.get("type") != "auth_required":
            raise RingError(f"HA's websocket began with {hello}")
        await self.ws.send_json({"type": "auth", "access_token": ha.token})
        answer = await self.ws.receive_json(timeout=REQUEST_TIMEOUT)
        if answer.get("type") != "auth_ok":
            raise RingError(f"HA's websocket refused the token: {answer}")
        self.reader = asyncio.create_task(self._read())
        await self.call("subscribe_events", event_type="tag_scanned")

    async def _read(self) -> None:
        """Dispatches results to their callers and records events, until the socket closes."""
        try:
            async for frame in self.ws:
                if frame.type != aiohttp.WSMsgType.TEXT:
                    continue
                data = json.loads(frame.data)
                for message in data if isinstance(data, list) else [data]:
                    self._dispatch(message)
        finally:
            for future in self.pending.values():
                if not future.done():
                    future.set_exception(RingError("HA's websocket closed"))
            self.pending.clear()

    def _dispatch(self, message: dict) -> None:
        if message.get("type") == "event":
            data = message["event"]["data"]
            self.events.append(Event(time.monotonic(), data.get("tag_id"), data.get("device_id")))
            log(f"tag_scanned {data.get('tag_id')} (device {data.get('device_id')})")
        elif message.get("type") == "result":
            future = self.pending.pop(message.get("id"), None)
            if future and not future.done():
                future.set_result(message)

    async def call(self, command: str, **fields):
        """One websocket command; its result, or RingError."""
        if self.ws is None or self.ws.closed:
            raise RingError("HA's websocket is not connected")
        message_id, self.next_id = self.next_id, self.next_id + 1
        future = asyncio.get_running_loop().create_future()
        self.pending[message_id] = future
        await self.ws.send_json({"id": message_id, "type": command, **fields})
        try:
            answer = await asyncio.wait_for(future, REQUEST_TIMEOUT)
        except asyncio.TimeoutError:
            raise RingError(f"no answer to {command} within {REQUEST_TIMEOUT} s") from None
        if not answer.get("success"):
            raise RingError(f"{command} failed: {answer.get('error')}")
        return answer.get("result")

    async def close(self) -> None:
        if self.ws is not None and not self.ws.closed:
            await self.ws.close()
        if self.reader is not None:
            try:
                await asyncio.wait_for(self.reader, 5)
            except (asyncio.TimeoutError, Exception):  # noqa: BLE001 - closing, whatever happened
                self.reader.cancel()


# ---------------------------------------------------------------------------------------------
# The station: forwarders and taps
# ---------------------------------------------------------------------------------------------


class Forwarder:
    """`nfctap fleet forward FILE --publish URL --homeassistant`, stderr to FILE.log."""

    def __init__(self, nfctap: Path, record_file: Path, url: str):
        self.record_file = record_file
        record_file.touch()
        self.log_path = record_file.with_name(record_file.name + ".log")
        self.child = Child(f"forwarder of {record_file.name}",
                           [str(nfctap), "fleet", "forward", str(record_file), "--publish", url,
                            "--homeassistant", "--status-every", "5"],
                           self.log_path)

    async def start(self) -> None:
        await self.child.start()

    async def stop(self) -> float:
        return await self.child.stop()


@dataclass
class Tap:
    uid: str
    ha_tag: str | None
    file: Path
    at: float = field(default_factory=time.monotonic)

    @property
    def tag_id(self) -> str:
        """What HA must see: HA's own tag id when the tag has one, else the UID."""
        return self.ha_tag or self.uid


def append_tap(record_file: Path, ha_tag: str | None = None) -> Tap:
    """A tap: one JSON line appended in one write, as nfctap's recorder does. A fresh random
    7-byte UID each time, so that no two taps of a ring share a tag id."""
    uid = "04" + secrets.token_hex(6).upper()
    record = {"time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + ".000Z",
              "uid": uid, "type": "NTAG215", "reader": "r"}
    if ha_tag:
        record["haTag"] = ha_tag
    fd = os.open(record_file, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (json.dumps(record, separators=(",", ":")) + "\n").encode())
    finally:
        os.close(fd)
    tap = Tap(uid, ha_tag, record_file)
    log(f"tap {uid}" + (f" (haTag {ha_tag})" if ha_tag else "") + f" into {record_file.name}")
    return tap


# ---------------------------------------------------------------------------------------------
# The ring
# ---------------------------------------------------------------------------------------------


class Ring:
    def __init__(self, args):
        self.args = args
        self.tmp = Path(tempfile.mkdtemp(prefix="nfctap-ha-ring."))
        ports: set[int] = set()
        self.broker = Broker(self.tmp / "mosquitto", free_port(ports))
        self.ha = HomeAssistant(args.venv, self.tmp / "ha-config", free_port(ports))
        self.monitor = Monitor(self.broker.port, self.tmp / "mqtt-traffic.log")
        self.url = f"mqtt://127.0.0.1:{self.broker.port}/nfctap/{SITE}/{STATION}/taps"
        self.records = self.tmp / "records.jsonl"
        self.records2 = self.tmp / "records-2.jsonl"
        self.forwarders: dict[Path, Forwarder] = {}
        self.events: list[Event] = []
        self.websocket = HAWebSocket(self.events)
        self.taps: list[Tap] = []
        self.timings: list[str] = []  # for the report at the end
        self.session: aiohttp.ClientSession | None = None
        self.current: tuple[str, float] | None = None  # the scenario running: name, start

    # ---- what the scenarios use ----

    def tap(self, record_file: Path, ha_tag: str | None = None) -> Tap:
        tap = append_tap(record_file, ha_tag)
        self.taps.append(tap)
        return tap

    def forwarder(self, record_file: Path) -> Forwarder:
        if record_file not in self.forwarders:
            self.forwarders[record_file] = Forwarder(self.args.nfctap, record_file, self.url)
        return self.forwarders[record_file]

    def check_alive(self) -> None:
        """RingError when a process that should run has died (mosquitto, HA, a forwarder)."""
        for child in [self.broker.child, self.ha.child, *(f.child for f in self.forwarders.values())]:
            child.check_running()

    async def station_devices(self) -> list[dict]:
        devices = await self.websocket.call("config/device_registry/list")
        return [d for d in devices if d.get("manufacturer") == "nfctap"]

    async def station_device_id(self) -> str:
        """The id of the station's one HA device (manufacturer nfctap, from the config/
        device_registry/list command); ScenarioFailed when there is none or more than one."""
        devices = await self.station_devices()
        if len(devices) > 1:
            names = ", ".join(f"{d['name']} {d['identifiers']}" for d in devices)
            raise ScenarioFailed(f"{len(devices)} HA devices for the station, want 1: {names}")
        if not devices:
            raise ScenarioFailed("no HA device of manufacturer nfctap")
        return devices[0]["id"]

    def seen(self, tag_id: str) -> list[Event]:
        return [e for e in self.events if e.tag_id == tag_id]

    async def expect_each_once(self, new_taps: list[Tap], since_wall: float) -> str:
        """Waits until each new tap reached HA (ARRIVAL_TIMEOUT), then DUPLICATE_WINDOW more.
        Checks: each new tap exactly one tag_scanned with its tag id and the station's device;
        no earlier tap got another event meanwhile; no event for a tag no tap made."""
        counts_before = {t.tag_id: len(self.seen(t.tag_id)) for t in self.taps if t not in new_taps}
        events_before = len(self.events)
        deadline = time.monotonic() + self.args.arrival_timeout
        while time.monotonic() < deadline and not all(self.seen(t.tag_id) for t in new_taps):
            self.check_alive()
            await asyncio.sleep(0.1)
        await asyncio.sleep(DUPLICATE_WINDOW)
        try:
            device_id = await self.station_device_id()
        except ScenarioFailed as failure:
            raise ScenarioFailed(str(failure) + self.diagnostics(since_wall)) from None

        problems, arrivals = [], []
        for tap in new_taps:
            events = self.seen(tap.tag_id)
            if len(events) != 1:
                problem = f"{tap.tag_id}: {len(events)} tag_scanned, want 1"
                problems.append(problem + (self.why_missing(tap) if not events else ""))
            wrong = [e.device_id for e in events if e.device_id != device_id]
            if wrong:
                problems.append(f"{tap.tag_id}: device_id {wrong[0]}, want the station's {device_id}")
            if events:
                arrival = f"{tap.tag_id} in {events[0].at - tap.at:.1f} s"
                copies = self.monitor.copies_for_ha(tap.tag_id)
                if copies > 1:  # not a failure: HA saw one; but a warning on the line
                    arrival += f" (warning: published for HA {copies} times)"
                arrivals.append(arrival)
        for tag_id, before in counts_before.items():
            if len(self.seen(tag_id)) > before:
                problems.append(f"an earlier tap, {tag_id}, got an event during this scenario "
                                f"({len(self.seen(tag_id))} in all)")
        made = {t.tag_id for t in self.taps}
        for event in self.events[events_before:]:
            if event.tag_id not in made:
                problems.append(f"tag_scanned for {event.tag_id!r}, which no tap made")
        if problems:
            raise ScenarioFailed("; ".join(problems) + self.diagnostics(since_wall))
        return ", ".join(arrivals)

    def why_missing(self, tap: Tap) -> str:
        """For a tap with no event: did HA log a scan the websocket missed (a harness race)?"""
        logged = self.ha.scans_logged(tap.tag_id)
        if logged:
            return f" (HA's log has {logged} scan(s): fired before the ring's websocket listened)"
        return " (HA's log has no scan of it either)"

    def diagnostics(self, since_wall: float) -> str:
        """What crossed the broker since the scenario began, and the processes' logs."""
        messages = self.monitor.since(since_wall)
        traffic = "\n".join(f"    +{m.at - since_wall:5.1f}s {m.topic}{' (retained)' if m.retained else ''} {m.payload[:160]}"
                            for m in messages[-30:]) or "    (nothing)"
        parts = [f"\n  MQTT traffic since the scenario began (the ring's monitor):\n{traffic}"]
        for forwarder in self.forwarders.values():
            parts.append(f"  {forwarder.child.name} ({forwarder.log_path}):\n{tail(forwarder.log_path, 15)}")
        parts.append(self.ha.log_tail(25))
        return "\n".join(parts)

    # ---- setup ----

    async def setup(self) -> None:
        log(f"working in {self.tmp}; mosquitto 127.0.0.1:{self.broker.port}, HA 127.0.0.1:{self.ha.port}")
        if not Path("/etc/machine-id").is_file():
            raise RingError("the station needs a machine id (/etc/machine-id)")
        await self.broker.start()
        self.monitor.start()

        up = await self.ha.start(self.session)
        await self.ha.onboard(self.session)
        await self.ha.wait_running(self.session)
        started = time.monotonic() - RING_START
        self.timings.append(f"HA first start: API up in {up:.1f} s, onboarded and RUNNING at +{started:.1f} s")
        log(f"Home Assistant up in {up:.1f} s, onboarded")

        entry_at = time.time()
        await self.ha.add_mqtt(self.session, self.broker.port)
        await wait_until(lambda: self.monitor.births(entry_at), 60, "HA's MQTT birth message",
                         check=self.check_alive)
        birth = self.monitor.births(entry_at)[0] - entry_at
        self.timings.append(f"MQTT config entry to HA's birth: {birth:.1f} s")
        log(f"MQTT integration added; HA's birth {birth:.1f} s later")
        await self.websocket.connect(self.session, self.ha)

    # ---- the scenarios ----

    async def new_station(self) -> str:
        """a. the forwarder started, a tap at once."""
        since = time.time()
        forwarder = self.forwarder(self.records)
        await forwarder.start()
        tap = self.tap(self.records)
        detail = await self.expect_each_once([tap], since)
        self.note_discovery_latency(since)
        return detail

    async def ha_tag_id(self) -> str:
        """b. a tap of a tag with HA's own tag id: HA sees the haTag, not the uid."""
        since = time.time()
        tap = self.tap(self.records, ha_tag="ring-" + secrets.token_hex(4))
        return await self.expect_each_once([tap], since)

    async def broker_restart(self) -> str:
        """c. mosquitto stopped, a tap while it is down, mosquitto again on the same port
        (no persistence: the retained discovery config is gone)."""
        since = time.time()
        await self.broker.stop()
        await asyncio.sleep(1)  # everyone has lost the connection
        tap = self.tap(self.records)
        await asyncio.sleep(2)  # the tap waits while the broker is down
        await self.broker.start()
        restarted_at = time.time()
        detail = await self.expect_each_once([tap], since)
        births = self.monitor.births(restarted_at)
        if births:
            self.timings.append(f"broker back to HA's birth: {births[0] - restarted_at:.1f} s")
        return detail

    async def ha_restart(self) -> str:
        """d. HA stopped (SIGTERM), a tap while it is down, HA again: same config, same token."""
        since = time.time()
        await self.websocket.close()
        stopped = await self.ha.stop()
        await asyncio.sleep(1)  # the broker has sent HA's last will
        tap = self.tap(self.records)
        await asyncio.sleep(2)  # the tap waits while HA is down
        restart_at = time.time()
        up = await self.ha.start(self.session)
        token = await self.ha.ensure_token(self.session)
        await self.websocket.connect(self.session, self.ha)
        await self.ha.wait_running(self.session)
        self.timings.append(f"HA restart: stopped in {stopped:.1f} s, API up again in {up:.1f} s ({token})")
        detail = await self.expect_each_once([tap], since)
        births = self.monitor.births(restart_at)
        if births:
            self.timings.append(f"HA started again to its birth: {births[0] - restart_at:.1f} s")
        return f"{detail} (HA stopped in {stopped:.1f} s, up in {up:.1f} s, {token})"

    async def station_restart(self) -> str:
        """e. the forwarder stopped (SIGTERM), a tap, the forwarder again."""
        since = time.time()
        forwarder = self.forwarder(self.records)
        await forwarder.stop()
        tap = self.tap(self.records)
        await forwarder.start()
        return await self.expect_each_once([tap], since)

    async def second_file(self) -> str:
        """f. another record file of the same station (its own forwarder, the same URL): one
        HA device still, and one event per tap of either file."""
        since = time.time()
        await self.forwarder(self.records2).start()
        taps = [self.tap(self.records2), self.tap(self.records)]
        return await self.expect_each_once(taps, since)

    SCENARIOS = [
        ("a", "new station", new_station),
        ("b", "HA tag id", ha_tag_id),
        ("c", "broker restart", broker_restart),
        ("d", "HA restart", ha_restart),
        ("e", "station restart", station_restart),
        ("f", "second file", second_file),
    ]

    def note_discovery_latency(self, since_wall: float) -> None:
        """Timings for the report: the station's discovery config on the broker, and when HA
        subscribed to the topic it names."""
        configs = [m for m in self.monitor.since(since_wall)
                   if m.topic.startswith(f"{DISCOVERY_PREFIX}/tag/") and m.topic.endswith("/config")]
        if not configs:
            return
        try:
            topic = json.loads(configs[0].payload).get("topic")
        except ValueError:
            return
        subscribed = [t for t in self.ha.subscriptions_logged(topic) if t >= configs[0].at - 1]
        note = f"discovery config {configs[0].topic} (topic {topic})"
        if subscribed:
            note += f": HA subscribed {subscribed[0] - configs[0].at:.2f} s after it"
        self.timings.append(note)

    # ---- running and cleaning up ----

    async def run(self, results: list[tuple[str, bool, str, float]]) -> None:
        """Setup, then each scenario in turn; a failed scenario does not stop the next."""
        self.session = aiohttp.ClientSession()
        await self.setup()
        for letter, name, scenario in self.SCENARIOS:
            log(f"scenario {letter}: {name}")
            started = time.monotonic()
            self.current = (f"{letter}. {name}", started)
            try:
                detail, ok = await scenario(self), True
            except ScenarioFailed as failure:
                detail, ok = str(failure), False
            results.append((f"{letter}. {name}", ok, detail, time.monotonic() - started))
            report(*results[-1])
            self.current = None

    async def cleanup(self) -> None:
        """Stops everything the ring started, in order, each step bounded; then the temp dir."""
        steps = [self.websocket.close()]
        steps += [f.stop() for f in self.forwarders.values()]
        steps += [self.ha.stop()]
        for step in steps:
            try:
                await asyncio.wait_for(step, HA_STOP_TIMEOUT + 5)
            except Exception as error:  # noqa: BLE001 - cleanup goes on whatever happened
                log(f"cleanup: {type(error).__name__}: {error}")
        self.monitor.stop()
        try:
            await asyncio.wait_for(self.broker.stop(), PROCESS_STOP_TIMEOUT + 5)
        except Exception as error:  # noqa: BLE001
            log(f"cleanup: {type(error).__name__}: {error}")
        if self.session is not None:
            await self.session.close()
        self.kill_all()
        if self.args.keep:
            log(f"kept {self.tmp}")
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def kill_all(self) -> None:
        for child in [self.ha.child, self.broker.child, *(f.child for f in self.forwarders.values())]:
            child.kill_now()


def report(name: str, ok: bool, detail: str, seconds: float) -> None:
    """One scenario's line on stdout (diagnostics, on lines of their own, follow a failure)."""
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail} ({seconds:.1f} s)", flush=True)


async def main_async(args) -> int:
    ring = Ring(args)
    results: list[tuple[str, bool, str, float]] = []
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signum, task.cancel)
    stopped = None  # why the ring stopped before its end
    try:
        await asyncio.wait_for(ring.run(results), args.time_limit)
    except asyncio.TimeoutError:
        stopped = f"out of time: the ring's limit is {args.time_limit:.0f} s"
    except RingError as error:
        stopped = str(error)
    except aiohttp.ClientError as error:
        stopped = f"talking to Home Assistant: {type(error).__name__}: {error}\n" + ring.ha.log_tail()
    finally:
        log("cleaning up")
        await ring.cleanup()

    if stopped:
        if ring.current:  # the scenario it stopped in fails with the reason
            name, started = ring.current
            results.append((name, False, stopped, time.monotonic() - started))
            report(*results[-1])
        else:
            print(f"FAIL setup: {stopped}", flush=True)
        done = {name for name, *_ in results}
        for letter, name, _ in Ring.SCENARIOS:
            if f"{letter}. {name}" not in done:
                results.append((f"{letter}. {name}", False, "not run", 0.0))
                report(*results[-1])
    for timing in ring.timings:
        print(f"  timing: {timing}")
    passed = sum(1 for _, ok, *_ in results if ok)
    print(f"ha-ring: {passed} passed, {len(results) - passed} failed", flush=True)
    return 0 if passed == len(results) else 1


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nfctap", type=Path, required=True, help="the nfctap binary")
    parser.add_argument("--venv", type=Path, default=Path(sys.prefix),
                        help="the venv holding Home Assistant (default: this Python's)")
    parser.add_argument("--time-limit", type=float, default=RING_TIME_LIMIT,
                        help=f"seconds for the whole ring (default {RING_TIME_LIMIT})")
    parser.add_argument("--arrival-timeout", type=float, default=ARRIVAL_TIMEOUT,
                        help=f"seconds a tap may take to reach HA (default {ARRIVAL_TIMEOUT})")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (logs)")
    args = parser.parse_args()
    args.nfctap = args.nfctap.resolve()
    if not os.access(args.nfctap, os.X_OK):
        parser.error(f"{args.nfctap} is not an executable")
    if not os.access("/usr/sbin/mosquitto", os.X_OK):
        parser.error("/usr/sbin/mosquitto is missing (apt-get install mosquitto)")
    return args


def main() -> int:
    args = parse_args()
    try:
        return asyncio.run(main_async(args))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("ha-ring: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
