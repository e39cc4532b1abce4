"""Reads an OpenTimelineIO file or a CMX 3600 EDL with OpenTimelineIO's own readers (v0.11, vendored beside this
script) and prints what they understood as JSON: the independent reader the editor hand-off tests check our
writers against (test/support/otio-reader.ts runs it).

  python3 read.py otio FILE         the otio_json adapter
  python3 read.py edl FILE RATE     the cmx_3600 adapter, at RATE frames per second

OpenTimelineIO 0.11 was written for Python 2.7 and 3.x of 2019; two names it imports have since left Python's
standard library, so they are put back here before it is imported (its own files are as released):
  - collections.MutableSequence & co. moved to collections.abc (removed from collections in Python 3.10);
  - the `imp` module (removed in Python 3.12), used only to load adapter plugins from a manifest, which this script
    never does (it imports the two adapters directly).
One bug of 0.11's EDL reader is worked around the way OpenTimelineIO fixed it upstream (commit 03031699, "Fixed issue
where CMX3600 adapter would try to add the same clip to multiple tracks", #644, released in 0.12): an event on
several channels (AA/V: video and two audio tracks) puts a copy of its clip on each track, instead of the same clip
object twice (which 0.11 refuses: "already in a composition").
"""
import collections
import collections.abc
import copy
import json
import os
import sys
import types

sys.dont_write_bytecode = True  # keep the vendored tree clean (no __pycache__)
for _name in ("MutableSequence", "MutableMapping", "Mapping", "Sequence", "Iterable", "Callable", "Hashable", "Set", "MutableSet"):
    if not hasattr(collections, _name):
        setattr(collections, _name, getattr(collections.abc, _name))
import warnings

warnings.simplefilter("ignore", DeprecationWarning)  # imp's, on Python 3.11 and older
try:
    import imp  # noqa: F401  (Python < 3.12)
except ImportError:
    _imp = types.ModuleType("imp")

    def _plugins_unavailable(*_args, **_kwargs):
        raise RuntimeError("adapter plugins are not loaded by this reader; import the adapter module directly")

    _imp.find_module = _plugins_unavailable
    _imp.load_module = _plugins_unavailable
    sys.modules["imp"] = _imp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import opentimelineio as otio  # noqa: E402
from opentimelineio.adapters import cmx_3600, otio_json  # noqa: E402

# The vendored release: tag v0.11 (also "last_pure_python"), commit cc78a7c5e9b10808d524edd00a09f8a11b21ce1a.
OTIO_VERSION = "0.11.0"


def rational(t):
    return None if t is None else {"value": t.value, "rate": t.rate, "seconds": otio.opentime.to_seconds(t)}


def time_range(r):
    return None if r is None else {"start": rational(r.start_time), "duration": rational(r.duration)}


def describe(timeline):
    tracks = []
    for track in timeline.tracks:
        items = []
        for item in track:
            entry = {
                "schema": item.schema_name(),
                "name": item.name,
                "source_range": time_range(item.source_range),
                "range_in_parent": time_range(item.range_in_parent()),
                "metadata": dict(item.metadata),
            }
            ref = getattr(item, "media_reference", None)
            if ref is not None:
                entry["media_reference"] = {
                    "schema": ref.schema_name(),
                    "target_url": getattr(ref, "target_url", None),
                    "available_range": time_range(ref.available_range),
                }
            items.append(entry)
        tracks.append({"name": track.name, "kind": track.kind, "items": items, "duration": rational(track.duration())})
    return {
        "name": timeline.name,
        "global_start_time": rational(timeline.global_start_time),
        "duration": rational(timeline.duration()),
        "metadata": dict(timeline.metadata),
        "tracks": tracks,
    }


def main(argv):
    kind, path = argv[1], argv[2]
    with open(path, "r", encoding="utf-8") as f:
        text = f.read()
    if kind == "otio":
        timeline = otio_json.read_from_string(text)
    elif kind == "edl":
        insert = otio.core.Composition.insert

        def insert_copy_if_placed(self, index, item):
            return insert(self, index, copy.deepcopy(item) if item.parent() is not None else item)

        otio.core.Composition.insert = insert_copy_if_placed
        try:
            timeline = cmx_3600.read_from_string(text, rate=float(argv[3]))
        finally:
            otio.core.Composition.insert = insert
    else:
        raise SystemExit("usage: read.py otio FILE | read.py edl FILE RATE")
    if not isinstance(timeline, otio.schema.Timeline):
        raise SystemExit("not a timeline: " + type(timeline).__name__)
    json.dump({"otio_version": OTIO_VERSION, "timeline": describe(timeline)}, sys.stdout, default=str)


if __name__ == "__main__":
    main(sys.argv)
