"""The runtime's scripts minified ahead (site_builder/minify.py): fresh for every
script of static/, used by the build in place of rjsmin's output, never for a script
whose source changed, and smaller than rjsmin's by the margin that keeps a lesson's
first frame within budget."""
from __future__ import annotations

import gzip
import json
import subprocess

from explorables.site_builder.output import minify
from explorables.site_builder.commands.build import STATIC
from explorables.site_builder.output.scripts import RUNTIME, join_scripts


def test_every_script_of_the_runtime_is_minified_ahead():
    stale = minify.stale(minify.sources(STATIC))
    assert not stale, (f"{len(stale)} scripts have changed since they were minified, e.g. {stale[:3]}: "
                       f"run `python -m explorables.site_builder.output.minify`")


def test_an_edited_script_is_minified_by_rjsmin_and_the_others_come_from_the_artifact():
    import rjsmin

    source = (STATIC / "js/core.js").read_text(encoding="utf-8")
    edited = source + "\n// an edit\n"
    assert minify.minified("js/core.js", edited) == rjsmin.jsmin(edited)
    ahead = minify.minified("js/core.js", source)
    assert ahead != rjsmin.jsmin(source) and len(ahead) < len(rjsmin.jsmin(source))
    assert minify.minified("js/not-shipped.js", "var a = 1;") == rjsmin.jsmin("var a = 1;")


def test_the_runtime_minified_ahead_is_smaller_compressed_than_by_rjsmin():
    import rjsmin

    ahead = join_scripts(STATIC, RUNTIME, minify=True).encode()
    plain = (";\n".join(rjsmin.jsmin((STATIC / n).read_text(encoding="utf-8")) for n in RUNTIME) + "\n").encode()
    assert len(gzip.compress(ahead, 6)) < 0.92 * len(gzip.compress(plain, 6))


# Node parses each file as `node --check` does a CommonJS script (the module wrapper's
# parameters, vm.compileFunction), in one process for all: a process a script took 4 s.
CHECK = """
const fs = require("fs"), vm = require("vm");
const failed = [];
for (const file of process.argv.slice(1)) {
  try {
    vm.compileFunction(fs.readFileSync(file, "utf8"), ["exports", "require", "module", "__filename", "__dirname"],
                       { filename: file });
  } catch (err) { failed.push(file + ": " + err.message); }
}
console.log(JSON.stringify(failed));
"""


def test_every_minified_script_parses(tmp_path):
    """Each minified script is valid JavaScript (the tests need Node)."""
    scripts = []
    for name, source in minify.sources(STATIC).items():
        script = tmp_path / name.replace("/", "_")
        script.write_text(minify.minified(name, source), encoding="utf-8")
        scripts.append(str(script))
    broken = tmp_path / "broken.js"
    broken.write_text("function (", encoding="utf-8")  # the check itself fails on what does not parse
    done = subprocess.run(["node", "-e", CHECK, *scripts, str(broken)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [f"{broken}: Function statements require a function name"], done.stdout
    assert len(scripts) > 40
