"""Crewdeck's Python tool bridge.

Crewdeck starts this script with a CrewAI project's own interpreter. It imports the project's tool
modules, finds the tools in them (functions decorated with CrewAI's ``@tool`` and subclasses of
``BaseTool``) and serves them over MCP (JSON-RPC 2.0, one message per line on stdin/stdout), so every call
goes through Crewdeck's policy gate, approval, trust and trace like any other tool.

Only the standard library is used. pydantic is never imported here: a tool's ``args_schema`` (which its
own module imported) is asked for its JSON schema (pydantic v2 ``model_json_schema()``, v1 ``schema()``).
Each tool is named by its Python identifier: the function name of a ``@tool`` function, the class name of
a ``BaseTool`` subclass. A module that cannot be imported still lists the tools its source defines
(found with ``ast``); calling one returns the import error. Anything the tools print goes to stderr,
which Crewdeck puts in the trace, never in a model's observation.
"""

import sys

if sys.version_info < (3, 8):
    sys.stderr.write("crewdeck bridge: Python 3.8 or newer is needed to run the tools; this is Python %s\n" % sys.version.split()[0])
    sys.exit(3)

import argparse
import ast
import asyncio
import inspect
import importlib
import json
import os
import threading
import traceback
import typing

SERVER_INFO = {"name": "crewdeck-python-bridge", "version": "1.0.0"}
DEFAULT_PROTOCOL = "2025-06-18"


def main():
    options = parse_args()
    protocol_out = take_stdout()
    for folder in reversed([os.path.join(options.project, p) for p in options.path] + [options.project]):
        sys.path.insert(0, os.path.abspath(folder))
    tools = collect_tools(options.module)
    Server(protocol_out, tools).serve()


def parse_args():
    parser = argparse.ArgumentParser(description="Serve a project's Python tools over MCP stdio.")
    parser.add_argument("--project", required=True)
    parser.add_argument("--path", action="append", default=[])
    parser.add_argument("--module", action="append", default=[])
    return parser.parse_args()


def take_stdout():
    """The protocol keeps the real stdout; file descriptor 1 and sys.stdout become stderr, so prints cannot corrupt it."""
    protocol_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(protocol_fd, "w", encoding="utf-8", newline="\n")


# ----------------------------------------------------------------------------------------------- tools


class BridgeTool:
    def __init__(self, name, description, schema, target=None, kind="function", broken=None):
        self.name = name
        self.description = description
        self.schema = schema
        self.target = target
        self.kind = kind
        self.broken = broken

    def listing(self):
        return {"name": self.name, "description": self.description, "inputSchema": self.schema}

    def call(self, arguments):
        if self.broken:
            raise BridgeError(self.broken)
        run = getattr(self.target, "run", None)
        if callable(run):
            result = run(**arguments)
        elif self.kind == "function":
            result = getattr(self.target, "func", self.target)(**arguments)
        else:
            result = self.target._run(**arguments)
        if inspect.isawaitable(result):
            result = asyncio.run(_awaited(result))
        return as_text(result)


class BridgeError(Exception):
    """A failure whose message is the whole story (no exception type prefix)."""


async def _awaited(value):
    return await value


def as_text(value):
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, (dict, list, tuple)):
        try:
            return json.dumps(value, ensure_ascii=False, default=str)
        except (TypeError, ValueError):
            return str(value)
    return str(value)


def collect_tools(modules):
    tools = {}
    for name in modules:
        try:
            module = importlib.import_module(name)
        except BaseException as error:  # a module may raise anything, SystemExit included
            if isinstance(error, KeyboardInterrupt):
                raise
            problem = "module %s could not be imported: %s: %s" % (name, type(error).__name__, error)
            sys.stderr.write("crewdeck bridge: %s\n%s" % (problem, traceback.format_exc()))
            found = static_tools(name, problem)
        else:
            found = live_tools(module)
        for tool in found:
            if tool.name in tools:
                sys.stderr.write("crewdeck bridge: two tools are named %s; the one in %s is used\n" % (tool.name, name))
            tools[tool.name] = tool
    return tools


def is_base_tool_class(value):
    return inspect.isclass(value) and any(base.__name__ == "BaseTool" for base in inspect.getmro(value)[1:])


def live_tools(module):
    found = []
    for attribute, value in list(vars(module).items()):
        if is_base_tool_class(value) and value.__module__ == module.__name__ and not inspect.isabstract(value):
            found.append(class_tool(value))
        elif is_base_tool_class(type(value)):
            func = getattr(value, "func", None)
            if callable(func) and getattr(func, "__module__", None) == module.__name__:
                found.append(function_tool(getattr(func, "__name__", attribute), value, func))
    return found


def class_tool(cls):
    try:
        instance = cls()
    except Exception as error:
        problem = "%s could not be created: %s: %s" % (cls.__name__, type(error).__name__, error)
        sys.stderr.write("crewdeck bridge: %s\n%s" % (problem, traceback.format_exc()))
        return BridgeTool(cls.__name__, class_description(cls), signature_schema(getattr(cls, "_run", None), skip_first=True), kind="class", broken=problem)
    schema = model_schema(getattr(instance, "args_schema", None)) or signature_schema(instance._run)
    return BridgeTool(cls.__name__, plain_description(getattr(instance, "description", "")) or class_description(cls), schema, instance, "class")


def function_tool(identifier, tool, func):
    schema = model_schema(getattr(tool, "args_schema", None)) or signature_schema(func)
    description = plain_description(getattr(tool, "description", "")) or inspect.getdoc(func) or identifier
    return BridgeTool(identifier, description, schema, tool, "function")


def class_description(cls):
    return (inspect.getdoc(cls) or cls.__name__).strip()


def plain_description(text):
    """CrewAI rewrites a tool's description as "Tool Name: …\\nTool Arguments: …\\nTool Description: …"; the last part is the author's."""
    text = (text or "").strip() if isinstance(text, str) else ""
    marker = "Tool Description:"
    if text.startswith("Tool Name:") and marker in text:
        return text.split(marker, 1)[1].strip()
    return text


# --------------------------------------------------------------------------------------------- schemas


def model_schema(model):
    """The JSON schema of a pydantic model class (v2 model_json_schema, v1 schema), or None."""
    if not inspect.isclass(model):
        return None
    for method in ("model_json_schema", "schema"):
        produce = getattr(model, method, None)
        if callable(produce):
            try:
                schema = produce()
            except Exception as error:
                sys.stderr.write("crewdeck bridge: the args_schema %s has no JSON schema (%s: %s)\n" % (model.__name__, type(error).__name__, error))
                return None
            if isinstance(schema, dict) and schema.get("type", "object") == "object":
                schema.setdefault("type", "object")
                schema.setdefault("properties", {})
                if not schema["properties"] and not schema.get("required") and model.__name__.startswith("_ArgsSchemaPlaceholder"):
                    return None
                return schema
    return None


SIMPLE_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean", list: "array", dict: "object", tuple: "array"}


def type_schema(annotation):
    if annotation in SIMPLE_TYPES:
        return {"type": SIMPLE_TYPES[annotation]}
    origin = getattr(typing, "get_origin", lambda a: getattr(a, "__origin__", None))(annotation)
    args = getattr(typing, "get_args", lambda a: getattr(a, "__args__", ()))(annotation)
    if origin is typing.Union:
        options = [a for a in args if a is not type(None)]
        return type_schema(options[0]) if len(options) == 1 else {}
    if origin in (list, tuple, set, frozenset):
        return {"type": "array", "items": type_schema(args[0])} if args else {"type": "array"}
    if origin is dict:
        return {"type": "object"}
    if str(origin) == "typing.Literal" or getattr(origin, "_name", None) == "Literal":
        return {"enum": list(args)}
    return {}


def signature_schema(func, skip_first=False):
    """A JSON schema from a function's parameters and annotations (when the tool has no args_schema)."""
    properties, required = {}, []
    if func is None:
        return {"type": "object", "properties": properties}
    try:
        parameters = list(inspect.signature(func).parameters.values())
        hints = typing.get_type_hints(func)
    except (TypeError, ValueError, NameError):
        parameters, hints = [], {}
    if skip_first and parameters and parameters[0].name in ("self", "cls"):
        parameters = parameters[1:]
    for p in parameters:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        prop = type_schema(hints.get(p.name, p.annotation))
        if p.default is p.empty:
            required.append(p.name)
        elif isinstance(p.default, (str, int, float, bool, type(None))):
            prop["default"] = p.default
        properties[p.name] = prop
    schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


def static_tools(module_name, problem):
    """The tools a module's source defines, read without running it (the module could not be imported)."""
    source_file = find_source(module_name)
    if source_file is None:
        return []
    try:
        with open(source_file, encoding="utf-8") as handle:
            tree = ast.parse(handle.read(), source_file)
    except (OSError, SyntaxError, ValueError):
        return []
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(decorator_name(d) == "tool" for d in node.decorator_list):
            params = [a.arg for a in node.args.args]
            found.append(BridgeTool(node.name, ast.get_docstring(node) or node.name, {"type": "object", "properties": {p: {} for p in params}, "required": params}, broken=problem))
        elif isinstance(node, ast.ClassDef) and any(decorator_name(b) == "BaseTool" for b in node.bases):
            found.append(BridgeTool(node.name, static_description(node), {"type": "object", "properties": {}}, kind="class", broken=problem))
    return found


def decorator_name(node):
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def static_description(node):
    for item in node.body:
        target = item.target if isinstance(item, ast.AnnAssign) else (item.targets[0] if isinstance(item, ast.Assign) and len(item.targets) == 1 else None)
        value = getattr(item, "value", None)
        if isinstance(target, ast.Name) and target.id == "description" and isinstance(value, ast.Constant) and isinstance(value.value, str):
            return value.value
    return ast.get_docstring(node) or node.name


def find_source(module_name):
    parts = module_name.split(".")
    for folder in sys.path:
        base = os.path.join(folder or ".", *parts)
        for candidate in (base + ".py", os.path.join(base, "__init__.py")):
            if os.path.isfile(candidate):
                return candidate
    return None


# -------------------------------------------------------------------------------------------- protocol


class Server:
    def __init__(self, out, tools):
        self.out = out
        self.tools = tools
        self.lock = threading.Lock()

    def serve(self):
        stdin = sys.stdin.buffer
        while True:
            line = stdin.readline()
            if not line:
                break
            if not line.strip():
                continue
            try:
                message = json.loads(line.decode("utf-8"))
            except ValueError as error:
                self.send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error: %s" % error}})
                continue
            if isinstance(message, dict):
                self.handle(message)
        sys.stderr.flush()
        # Calls still running (a hung tool) must not keep the process alive once Crewdeck has gone.
        os._exit(0)

    def handle(self, message):
        method, ident = message.get("method"), message.get("id")
        if ident is None:
            return  # notifications: initialized, cancelled (a running Python call cannot be stopped)
        params = message.get("params") or {}
        if method == "initialize":
            version = params.get("protocolVersion") or DEFAULT_PROTOCOL
            self.reply(ident, {"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": SERVER_INFO})
        elif method == "ping":
            self.reply(ident, {})
        elif method == "tools/list":
            self.reply(ident, {"tools": [tool.listing() for tool in self.tools.values()]})
        elif method == "tools/call":
            threading.Thread(target=self.call, args=(ident, params), daemon=True).start()
        else:
            self.send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "method not found: %s" % method}})

    def call(self, ident, params):
        name = params.get("name")
        tool = self.tools.get(name)
        if tool is None:
            return self.reply(ident, tool_error("no tool named %s (this server has: %s)" % (name, ", ".join(sorted(self.tools)) or "none")))
        try:
            text = tool.call(params.get("arguments") or {})
        except BridgeError as error:
            return self.reply(ident, tool_error(str(error)))
        except BaseException as error:
            if isinstance(error, KeyboardInterrupt):
                raise
            sys.stderr.write("crewdeck bridge: %s raised\n%s" % (name, traceback.format_exc()))
            sys.stderr.flush()
            return self.reply(ident, tool_error("%s: %s" % (type(error).__name__, error)))
        sys.stderr.flush()
        self.reply(ident, {"content": [{"type": "text", "text": text}], "isError": False})

    def reply(self, ident, result):
        self.send({"jsonrpc": "2.0", "id": ident, "result": result})

    def send(self, message):
        data = json.dumps(message, ensure_ascii=False)
        with self.lock:
            self.out.write(data + "\n")
            self.out.flush()


def tool_error(text):
    return {"content": [{"type": "text", "text": text}], "isError": True}


if __name__ == "__main__":
    main()
