"""The order of play, from the rules file to a tree of nodes (model.py `Flow`).

A rules file writes it under `flow:` as a node: a phase id; a list (one node after another);
`{sequence: [...]}`; `{repeat: NODE, times: N}` or `{repeat: NODE, until: CONDITION, check:
before|after}`, with `between: NODE` run between two passes; `{branch: VALUE, cases: {WORD:
NODE}, else: NODE}`. Any node but a phase may have a `name`: a lifetime that ends each time the
node is done (a repeat: each pass), and what `end_if: {after: NAME}` and the modifiers' `lasts`
name. The older `structure:` (ages of rounds) is sugar for the same tree: a repeat named `age`
around one named `round`, and a sequence named `game_end` after them. A game-level `end_if`
ends the game early (then play goes on at its `then` node, if it names one).
"""

from __future__ import annotations

from typing import Any

from ..base.errors import did_you_mean
from ..base.limits import MAX_FLOW_NODES, MAX_PASSES, MAX_PHASES_RUN
from ..dsl import Expression
from ..dsl.checked import NO_SEAT, NOT_CONSTANT
from ..dsl.types import ANY, BOOL, NUM, Type
from ..model import Flow, FlowNode
from .build_context import Build

KINDS = ("sequence", "repeat", "branch")
RESERVED_LIFETIMES = ("phase", "game")       # a phase's own, and the whole game's


class _Tree:
    """The nodes as they are made: each with its path in the document, for its problems."""

    def __init__(self, build: Build) -> None:
        self.build = build
        self.nodes: list[dict[str, Any]] = []
        self.names: dict[str, int] = {}

    def add(self, kind: str, parent: int, path: tuple, **fields: Any) -> int:
        if len(self.nodes) >= MAX_FLOW_NODES:
            if len(self.nodes) == MAX_FLOW_NODES:
                self.build.problem(path, f"the flow has more than {MAX_FLOW_NODES:,} nodes")
            self.nodes.append({})
            return len(self.nodes) - 1
        self.nodes.append({"kind": kind, "parent": parent, "path": path, **fields})
        return len(self.nodes) - 1

    def name(self, index: int, name: Any, path: tuple) -> None:
        if name is None:
            return
        if name in RESERVED_LIFETIMES:
            self.build.problem(path, f"'{name}' is a lifetime of its own: name the node otherwise")
        elif name in self.names:
            self.build.problem(path, f"two nodes of the flow are named '{name}'")
        else:
            self.names[name] = index
            self.nodes[index]["name"] = name


def build_flow(build: Build, data: dict[str, Any], phases: dict[str, Any]) -> Flow:
    """The flow of the rules file (`flow:`, else the sugar of `structure:`), checked."""
    build.known["phase"] = phases
    tree = _Tree(build)
    if "flow" in data:
        _node(tree, data["flow"], -1, ("flow",))
    else:
        _structure(tree, data.get("structure", {}))
    return _finish(tree, data)


def _node(tree: _Tree, spec: Any, parent: int, path: tuple) -> int:
    """One node of `flow:` (and what is under it)."""
    build = tree.build
    if isinstance(spec, str):
        build.ref(path, "phase")
        return tree.add("phase", parent, path, phase=spec)
    if isinstance(spec, list):
        return _sequence(tree, spec, parent, path, path)
    kind = next(k for k in KINDS if k in spec)          # the schema allows nothing else
    if kind == "sequence":
        index = _sequence(tree, spec["sequence"], parent, path, path + ("sequence",))
    elif kind == "repeat":
        index = _repeat(tree, spec, parent, path)
    else:
        index = _branch(tree, spec, parent, path)
    tree.name(index, spec.get("name"), path + ("name",))
    return index


def _sequence(tree: _Tree, items: list[Any], parent: int, path: tuple, items_path: tuple) -> int:
    index = tree.add("sequence", parent, path)
    tree.nodes[index]["children"] = [_node(tree, item, index, items_path + (i,)) for i, item in enumerate(items)]
    return index


def _repeat(tree: _Tree, spec: dict[str, Any], parent: int, path: tuple) -> int:
    build = tree.build
    index = tree.add("repeat", parent, path)
    node = tree.nodes[index]
    if "times" in spec:
        node["times"] = _expression(build, path + ("times",), NUM)
    if "until" in spec:
        node["until"] = _expression(build, path + ("until",), BOOL)
        node["check_before"] = spec.get("check", "after") == "before"
    children = [_node(tree, spec["repeat"], index, path + ("repeat",))]
    if "between" in spec:
        children.append(_node(tree, spec["between"], index, path + ("between",)))
    node["children"] = children
    return index


def _branch(tree: _Tree, spec: dict[str, Any], parent: int, path: tuple) -> int:
    build = tree.build
    index = tree.add("branch", parent, path)
    on = build.expression(path + ("branch",), NO_SEAT, ANY)      # a word, a number or true/false
    words = _words(build, on.type.enum)
    cases = []
    for word, case in spec["cases"].items():
        value = _case_value(build, on.type, word, words, path + ("cases", word))
        cases.append((value, _node(tree, case, index, path + ("cases", word))))
    otherwise = _node(tree, spec["else"], index, path + ("else",)) if "else" in spec else -1
    tree.nodes[index].update(on=on, cases=cases, otherwise=otherwise,
                             children=[c for _, c in cases] + ([otherwise] if otherwise >= 0 else []))
    return index


def _words(build: Build, enum: str | None) -> tuple[str, ...]:
    """The words a value of an enum may be: a property's values, or an option's."""
    if enum is None:
        return ()
    if enum.startswith("option."):
        return build.vocab.options.get(enum[len("option."):], ())
    return build.vocab.enums.get(enum, ())


def _case_value(build: Build, typ: Type, word: str, words: tuple[str, ...], path: tuple) -> Any:
    """A case's key as the value it stands for: a word of the branch value's enum, a number or
    true/false, as the value's type says."""
    if typ.kind == "number":
        try:
            return int(word)
        except ValueError:
            build.problem(path, f"the branch's value is a number: '{word}' is not one", key=True)
            return None
    if typ.kind == "boolean":
        if word not in ("true", "false"):
            build.problem(path, f"the branch's value is true or false, not '{word}'", key=True)
        return word == "true"
    if words and word not in words:
        build.problem(path, f"'{word}' is not a value the branch can take: {', '.join(words)}", key=True)
    return word


def _expression(build: Build, path: tuple, wanted: Type) -> Expression:
    return build.expression(path, NO_SEAT, wanted)


# ---- the sugar of `structure:` --------------------------------------------------------------------

def _structure(tree: _Tree, structure: dict[str, Any]) -> None:
    """`structure:` as the tree it stands for: a repeat named `age` (its `between` the phases
    between two ages) around the age's start, a repeat named `round` and the age's end; then a
    sequence named `game_end`."""
    build = tree.build
    base = ("structure",)
    root = tree.add("sequence", -1, base)
    age = tree.add("repeat", root, base + ("ages",), times=_count(build, structure, "ages"))
    tree.name(age, "age", base)
    body = tree.add("sequence", age, base)
    parts = _phase_list(tree, structure, "age_start", body)
    rounds = tree.add("repeat", body, base + ("rounds",), times=_count(build, structure, "rounds"))
    tree.name(rounds, "round", base)
    tree.nodes[rounds]["children"] = [_phase_sequence(tree, structure, "round", rounds)]
    parts.append(rounds)
    parts += _phase_list(tree, structure, "age_end", body)
    tree.nodes[body]["children"] = parts
    between = _phase_list(tree, structure, "between_ages", age)
    if between:
        tree.nodes[age]["children"] = [body, _wrap(tree, between, age)]
    else:
        tree.nodes[age]["children"] = [body]
    children = [age]
    if structure.get("game_end"):
        end = _phase_sequence(tree, structure, "game_end", root)
        tree.name(end, "game_end", base + ("game_end",))
        children.append(end)
    tree.nodes[root]["children"] = children


def _count(build: Build, structure: dict[str, Any], key: str) -> Expression:
    return build.constant(structure.get(key, 1), ("structure", key))


def _phase_list(tree: _Tree, structure: dict[str, Any], key: str, parent: int) -> list[int]:
    """The nodes of one list of `structure`: a phase, or `{repeat: N, phases: [...]}`."""
    found = []
    for i, entry in enumerate(structure.get(key, [])):
        path = ("structure", key, i)
        if isinstance(entry, dict):
            times = tree.build.constant(entry.get("repeat", 1), path + ("repeat",))
            index = tree.add("repeat", parent, path, times=times)
            body = tree.add("sequence", index, path + ("phases",))
            tree.nodes[body]["children"] = [_node(tree, p, body, path + ("phases", j))
                                            for j, p in enumerate(entry.get("phases", []))]
            tree.nodes[index]["children"] = [body]
            found.append(index)
        else:
            found.append(_node(tree, entry, parent, path))
    return found


def _phase_sequence(tree: _Tree, structure: dict[str, Any], key: str, parent: int) -> int:
    index = tree.add("sequence", parent, ("structure", key))
    tree.nodes[index]["children"] = _phase_list(tree, structure, key, index)
    return index


def _wrap(tree: _Tree, nodes: list[int], parent: int) -> int:
    index = tree.add("sequence", parent, tree.nodes[nodes[0]]["path"])
    for node in nodes:
        tree.nodes[node]["parent"] = index
    tree.nodes[index]["children"] = nodes
    return index


# ---- the finished tree ---------------------------------------------------------------------------------

def _finish(tree: _Tree, data: dict[str, Any]) -> Flow:
    """The frozen nodes, numbered leaves and counters, the game's `end_if`, and every lifetime
    the rules name checked against the nodes' names."""
    build = tree.build
    leaves: list[int] = []
    counters = 0
    nodes: list[FlowNode] = []
    for index, spec in enumerate(tree.nodes[:MAX_FLOW_NODES]):
        kind = spec["kind"]
        leaf = counter = -1
        if kind == "phase":
            leaf = len(leaves)
            leaves.append(index)
        elif kind == "repeat":
            counter = counters
            counters += 1
        nodes.append(FlowNode(kind, spec["parent"], spec.get("name"), tuple(spec.get("children", ())),
                              spec.get("phase", ""), leaf, spec.get("times"), spec.get("until"),
                              spec.get("check_before", False), counter, spec.get("on"),
                              tuple(spec.get("cases", ())), spec.get("otherwise", -1), spec["path"]))
    for index, node in enumerate(nodes):
        if node.kind == "repeat" and node.times is not None and node.times.constant is not NOT_CONSTANT:
            times = node.times.constant
            if isinstance(times, int) and not 0 <= times <= MAX_PASSES:
                build.problem(tree.nodes[index]["path"] + ("times",), f"a repeat runs 0 to {MAX_PASSES:,} times")
        if node.kind == "sequence" and not node.children:
            build.problem(tree.nodes[index]["path"], "an empty sequence: give it a phase, or leave it out")
        if node.kind == "repeat" and node.times is None and node.until is None:
            build.problem(tree.nodes[index]["path"], "a repeat needs `times` or `until`", key=True)
    end = _end_if(build, data.get("end_if"), tree, nodes)
    _lifetimes(build, data, tree.names)
    names = tree.names
    flow = Flow(tuple(nodes), tuple(leaves), counters,
                age=nodes[names["age"]].counter if "age" in names else -1,
                round=nodes[names["round"]].counter if "round" in names else -1, **end)
    if not build.problems and flow.most_phases(1) > MAX_PHASES_RUN:
        build.problem(tree.nodes[0]["path"], f"the flow would run more than {MAX_PHASES_RUN:,} phases")
    return flow


def _end_if(build: Build, spec: Any, tree: _Tree, nodes: list[FlowNode]) -> dict[str, Any]:
    """The game's `end_if`: a condition checked after every phase, or `{if: ..., after: NAME,
    then: NAME}`; `then` must be a node at the top of the flow."""
    if spec is None:
        return {}
    if not isinstance(spec, dict):
        return {"end_if": build.expression(("end_if",), NO_SEAT, BOOL)}
    found: dict[str, Any] = {"end_if": build.expression(("end_if", "if"), NO_SEAT, BOOL)}
    for key, field in (("after", "end_after"), ("then", "end_then")):
        name = spec.get(key)
        if name is None:
            continue
        if name not in tree.names:
            build.problem(("end_if", key), f"no node of the flow is named '{name}'",
                          did_you_mean(str(name), list(tree.names)))
            continue
        found[field] = tree.names[name]
    then = found.get("end_then", -1)
    if then >= 0 and nodes[then].parent != 0:
        build.problem(("end_if", "then"), "play can go on only at a node at the top of the flow")
    return found


def _lifetimes(build: Build, data: dict[str, Any], names: dict[str, int]) -> None:
    """Each modifier's `lasts` and each deck's `one_per_kind` names a lifetime the flow has."""
    known = list(RESERVED_LIFETIMES) + list(names)
    for section, key in (("modifiers", "lasts"), ("decks", "one_per_kind")):
        for name, spec in data.get(section, {}).items():
            lifetime = spec.get(key) if isinstance(spec, dict) else None
            if lifetime is not None and lifetime not in known:
                build.problem((section, name, key), f"no lifetime '{lifetime}': the flow's are {', '.join(known)}",
                              did_you_mean(str(lifetime), known))
