#!/usr/bin/python3
"""Generates server/commands/command_docs.inc from Redis's command JSON files.

Usage: scripts/gen-command-docs.py <redis-source-dir> [output-file]

Reads every <redis-source-dir>/src/commands/*.json (Redis 7.0.15's, BSD-licensed) and writes the
table COMMAND INFO and COMMAND DOCS answer from: for every command and subcommand of a
redis-server (sentinel-only commands left out), what Redis reports about it that is not behaviour.
The fields are computed as Redis 7.0.15 computes them at startup (utils/generate-command-code.py
and populateCommandStructure in server.c): flags and ACL categories as COMMAND INFO names them,
with the implicit categories and `movablekeys` added, first/last/step from the key
specifications (populateCommandLegacyRangeSpec), argument names in lower case and tokens in upper
case. The output is sorted by full name and formatted with clang-format, so the same input always
gives the same file. Standard library only.
"""

import glob
import json
import os
import subprocess
import sys

# COMMAND INFO's names for the command flags, in the order Redis replies them
# (addReplyFlagsForCommand); None: a flag Redis keeps but never shows.
COMMAND_FLAGS = [
    ("WRITE", "write"),
    ("READONLY", "readonly"),
    ("DENYOOM", "denyoom"),
    ("MODULE", "module"),
    ("ADMIN", "admin"),
    ("PUBSUB", "pubsub"),
    ("NOSCRIPT", "noscript"),
    ("BLOCKING", "blocking"),
    ("LOADING", "loading"),
    ("STALE", "stale"),
    ("SKIP_MONITOR", "skip_monitor"),
    ("SKIP_SLOWLOG", "skip_slowlog"),
    ("ASKING", "asking"),
    ("FAST", "fast"),
    ("NO_AUTH", "no_auth"),
    ("MAY_REPLICATE", None),
    ("SENTINEL", None),
    ("ONLY_SENTINEL", None),
    ("NO_MANDATORY_KEYS", "no_mandatory_keys"),
    ("PROTECTED", None),
    ("NO_ASYNC_LOADING", "no_async_loading"),
    ("NO_MULTI", "no_multi"),
    ("MOVABLE_KEYS", "movablekeys"),
    ("ALLOW_BUSY", "allow_busy"),
    ("TOUCHES_ARBITRARY_KEYS", None),
]

# ACL categories in the order COMMAND INFO lists them (ACLCommandCategories in acl.c).
ACL_CATEGORIES = [
    "keyspace", "read", "write", "set", "sortedset", "list", "hash", "string", "bitmap",
    "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow", "blocking", "dangerous",
    "connection", "transaction", "scripting",
]

# Key specification flags in reply order (addReplyFlagsForKeyArgs).
KEY_FLAGS = [
    ("RO", "RO"), ("RW", "RW"), ("OW", "OW"), ("RM", "RM"), ("ACCESS", "access"),
    ("UPDATE", "update"), ("INSERT", "insert"), ("DELETE", "delete"), ("NOT_KEY", "not_key"),
    ("INCOMPLETE", "incomplete"), ("VARIABLE_FLAGS", "variable_flags"),
]

DOC_FLAGS = [("DEPRECATED", "deprecated"), ("SYSCMD", "syscmd")]

# COMMAND DOCS's group names (COMMAND_GROUP_STR in server.c).
GROUPS = {
    "generic": "generic", "string": "string", "list": "list", "set": "set",
    "sorted_set": "sorted-set", "hash": "hash", "pubsub": "pubsub",
    "transactions": "transactions", "connection": "connection", "server": "server",
    "scripting": "scripting", "hyperloglog": "hyperloglog", "cluster": "cluster",
    "sentinel": "sentinel", "geo": "geo", "stream": "stream", "bitmap": "bitmap",
}

ARG_TYPES = {"string", "integer", "double", "key", "pattern", "unix-time", "pure-token", "oneof",
             "block"}


def fail(message):
    sys.exit("gen-command-docs: " + message)


def ordered_names(given, table, what, where):
    """The names of `given` (JSON flag names) in `table`'s order, hidden ones left out."""
    known = {json_name for json_name, _ in table}
    for flag in given:
        if flag not in known:
            fail("%s: unknown %s %s" % (where, what, flag))
    return [name for json_name, name in table if json_name in given and name is not None]


def cpp_string(text):
    """A C++ string literal for `text` (ASCII kept, anything else escaped in octal)."""
    out = '"'
    for byte in text.encode("utf-8"):
        ch = chr(byte)
        if ch in '"\\':
            out += "\\" + ch
        elif ch == "\n":
            out += "\\n"
        elif 0x20 <= byte < 0x7F:
            out += ch
        else:
            out += "\\%03o" % byte
    return out + '"'


def optional(desc, field):
    """A field Redis's generator treats as absent when empty (get_optional_desc_string)."""
    value = desc.get(field)
    return value if value else ""


def as_c_reads_it(text, where):
    """`text` as Redis has it: its generator writes strings into C between quotes unescaped, so
    MIGRATE's token `""` is two empty literals, an empty token."""
    if '"' not in text:
        return text
    pieces = ('"' + text + '"').split('"')  # odd pieces are inside literals
    if any(p.strip() for p in pieces[0::2]):
        fail("%s: %s is not a C string literal" % (where, text))
    return "".join(pieces[1::2])


def identifier(text):
    """CamelCase C++ identifier part for a command or argument name."""
    parts = "".join(c if c.isalnum() else " " for c in text).split()
    return "".join(p[:1].upper() + p[1:] for p in parts)


class Generator:
    def __init__(self):
        self.lines = []  # the arrays, each defined before its first use
        self.used_names = set()

    def array_name(self, base):
        name = "k" + base
        n = 2
        while name in self.used_names:
            name = "k%s%d" % (base, n)
            n += 1
        self.used_names.add(name)
        return name

    def args(self, args, base, where):
        """Writes the argument array for `args`; returns its name."""
        entries = []
        for arg in args:
            arg_type = arg["type"]
            if arg_type not in ARG_TYPES:
                fail("%s: unknown argument type %s" % (where, arg_type))
            flags = []
            if arg.get("optional"):
                flags.append("optional")
            if arg.get("multiple"):
                flags.append("multiple")
            if arg.get("multiple_token"):
                flags.append("multiple_token")
            sub = "kNoArgs"
            if arg_type in ("oneof", "block"):
                sub = self.args(arg["arguments"], base + identifier(arg["name"]), where)
            token = "kNoToken"
            if "token" in arg:
                token = cpp_string(as_c_reads_it(arg["token"].upper(), where))
            entries.append("{%s, %s, %d, %s, %s, %s, %s, %s, %s}" % (
                cpp_string(arg["name"].lower()), cpp_string(arg_type),
                arg.get("key_spec_index", -1), token,
                cpp_string(optional(arg, "summary")), cpp_string(optional(arg, "since")),
                cpp_string(optional(arg, "deprecated_since")), cpp_string(" ".join(flags)), sub))
        name = self.array_name(base + "Args")
        self.lines.append("constexpr ArgDoc %s[] = {%s};" % (name, ", ".join(entries)))
        return name

    def key_specs(self, specs, base, where):
        entries = []
        for spec in specs:
            flags = ordered_names(spec.get("flags", []), KEY_FLAGS, "key spec flag", where)
            bs = spec["begin_search"]
            if bs.get("index"):
                begin = "KeySearch::kIndex, %d, \"\"" % bs["index"]["pos"]
            elif bs.get("keyword"):
                begin = "KeySearch::kKeyword, %d, %s" % (bs["keyword"]["startfrom"],
                                                          cpp_string(bs["keyword"]["keyword"]))
            elif "unknown" in bs:
                begin = "KeySearch::kUnknown, 0, \"\""
            else:
                fail("%s: invalid begin_search %s" % (where, bs))
            fk = spec["find_keys"]
            if fk.get("range"):
                r = fk["range"]
                find = "KeyFind::kRange, %d, %d, %d" % (r["lastkey"], r["step"], r["limit"])
            elif fk.get("keynum"):
                k = fk["keynum"]
                find = "KeyFind::kKeynum, %d, %d, %d" % (k["keynumidx"], k["firstkey"], k["step"])
            elif "unknown" in fk:
                find = "KeyFind::kUnknown, 0, 0, 0"
            else:
                fail("%s: invalid find_keys %s" % (where, fk))
            entries.append("{%s, %s, %s, %s}" % (cpp_string(optional(spec, "notes")),
                                                 cpp_string(" ".join(flags)), begin, find))
        name = self.array_name(base + "KeySpecs")
        self.lines.append("constexpr KeySpecDoc %s[] = {%s};" % (name, ", ".join(entries)))
        return name

    def history(self, history, base):
        entries = ["{%s, %s}" % (cpp_string(since), cpp_string(changes))
                   for since, changes in history]
        name = self.array_name(base + "History")
        self.lines.append("constexpr HistoryDoc %s[] = {%s};" % (name, ", ".join(entries)))
        return name


def legacy_range(specs):
    """(first, last, step, movable) as populateCommandLegacyRangeSpec derives them."""
    def plain(spec):
        return spec["begin_search"].get("index") and spec["find_keys"].get("range")

    if not specs:
        return 0, 0, 0, False
    if len(specs) == 1 and plain(specs[0]):
        pos = specs[0]["begin_search"]["index"]["pos"]
        r = specs[0]["find_keys"]["range"]
        last = r["lastkey"] + pos if r["lastkey"] >= 0 else r["lastkey"]
        return pos, last, r["step"], "INCOMPLETE" in specs[0].get("flags", [])
    movable = False
    first, last, prev_last = None, 0, 0
    for spec in specs:
        if not plain(spec):
            movable = True
            continue
        pos = spec["begin_search"]["index"]["pos"]
        r = spec["find_keys"]["range"]
        if r["step"] != 1 or (prev_last and prev_last != pos - 1):
            movable = True
            continue
        if "INCOMPLETE" in spec.get("flags", []):
            movable = True
        first = pos if first is None else min(first, pos)
        abs_last = r["lastkey"] + pos if r["lastkey"] >= 0 else r["lastkey"]
        # Redis compares as unsigned, so a negative (count from the end) wins.
        last = max(last, abs_last, key=lambda v: v & 0xFFFFFFFF)
        prev_last = last
    if first is None:
        return 0, 0, 0, True
    return first, last, 1, movable


def load(redis_dir):
    commands = {}  # full name -> desc
    files = sorted(glob.glob(os.path.join(redis_dir, "src", "commands", "*.json")))
    if not files:
        fail("no command JSON files in %s/src/commands" % redis_dir)
    for path in files:
        with open(path, encoding="utf-8") as f:
            for name, desc in json.load(f).items():
                if "ONLY_SENTINEL" in desc.get("command_flags", []):
                    continue  # not in a redis-server's command table
                container = desc.get("container")
                full = (container + "|" + name if container else name).lower()
                if full in commands:
                    fail("%s defined twice" % full)
                commands[full] = desc
    for full, desc in commands.items():
        if "|" in full:
            parent = commands.get(full.split("|")[0])
            if parent is None:
                fail("%s has no container" % full)
            desc.setdefault("group", parent["group"])  # as Redis's generator links them
    return commands


def info_fields(full, desc):
    """COMMAND INFO's flags, first/last/step and ACL categories, as Redis computes them."""
    flags = list(desc.get("command_flags", []))
    first, last, step, movable = legacy_range(desc.get("key_specs", []))
    if movable:
        flags.append("MOVABLE_KEYS")
    flag_names = ordered_names(flags, COMMAND_FLAGS, "command flag", full)
    categories = {c.lower() for c in desc.get("acl_categories", [])}
    for c in categories:
        if c not in ACL_CATEGORIES:
            fail("%s: unknown ACL category %s" % (full, c))
    # setImplicitACLCategories
    if "WRITE" in flags:
        categories.add("write")
    if "READONLY" in flags and "scripting" not in categories:
        categories.add("read")
    if "ADMIN" in flags:
        categories |= {"admin", "dangerous"}
    if "PUBSUB" in flags:
        categories.add("pubsub")
    if "FAST" in flags:
        categories.add("fast")
    if "BLOCKING" in flags:
        categories.add("blocking")
    if "fast" not in categories:
        categories.add("slow")
    acl = " ".join("@" + c for c in ACL_CATEGORIES if c in categories)
    return flag_names, first, last, step, acl


def generate(commands, redis_dir):
    gen = Generator()
    rows = []
    for full in sorted(commands):
        desc = commands[full]
        base = identifier(full.replace("|", " "))
        flag_names, first, last, step, acl = info_fields(full, desc)
        tips = " ".join(t.lower() for t in desc.get("command_tips", []))
        key_specs = "kNoKeySpecs"
        if desc.get("key_specs"):
            key_specs = gen.key_specs(desc["key_specs"], base, full)
        history = "kNoHistory"
        if desc.get("history"):
            history = gen.history(desc["history"], base)
        args = "kNoArgs"
        if desc.get("arguments"):
            args = gen.args(desc["arguments"], base, full)
        if desc["group"] not in GROUPS:
            fail("%s: unknown group %s" % (full, desc["group"]))
        doc_flags = ordered_names(desc.get("doc_flags", []), DOC_FLAGS, "doc flag", full)
        rows.append("{%s}" % ", ".join([
            cpp_string(full), str(desc["arity"]), cpp_string(" ".join(flag_names)), str(first),
            str(last), str(step), cpp_string(acl), cpp_string(tips), key_specs,
            cpp_string(optional(desc, "summary")), cpp_string(optional(desc, "since")),
            cpp_string(GROUPS[desc["group"]]), cpp_string(optional(desc, "complexity")),
            cpp_string(" ".join(doc_flags)), cpp_string(optional(desc, "deprecated_since")),
            cpp_string(optional(desc, "replaced_by")), history, args]))

    version = "unknown"
    version_h = os.path.join(redis_dir, "src", "version.h")
    if os.path.exists(version_h):
        with open(version_h) as f:
            version = f.read().split('"')[1]
    header = [
        "// Generated by scripts/gen-command-docs.py from Redis %s's src/commands/*.json" % version,
        "// (BSD-licensed); do not edit. To regenerate, from the repository's root:",
        "//   scripts/gen-command-docs.py /path/to/redis-%s" % version,
        "// Included by server/commands/command_docs.cc; the types are in command_docs.h, the empty",
        "// lists (kNoArgs, kNoKeySpecs, kNoHistory) and kNoToken in command_docs.cc.",
        "",
    ]
    body = gen.lines + ["", "constexpr CommandDoc kCommandDocs[] = {%s};" % ", ".join(rows)]
    return "\n".join(header + body) + "\n"


def clang_format(text, repo_root):
    try:
        result = subprocess.run(
            ["clang-format", "--assume-filename=" + os.path.join(repo_root, "command_docs.cc")],
            input=text.encode(), capture_output=True, check=True)
    except FileNotFoundError:
        fail("clang-format is needed (scripts/setup.sh installs it)")
    return result.stdout.decode()


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    redis_dir = sys.argv[1]
    repo_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = sys.argv[2] if len(sys.argv) == 3 else os.path.join(
        repo_root, "server", "commands", "command_docs.inc")
    text = clang_format(generate(load(redis_dir), redis_dir), repo_root)
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    print("wrote %s" % out)


if __name__ == "__main__":
    main()
