# SPDX-License-Identifier: Apache-2.0
"""Man pages and shell completions (issue 13.4): a page per command, generated
from the argument parser, that man renders without a warning; libtender(3);
completions that each shell loads and that offer the subcommands."""
import json
import os
import re
import shutil
import subprocess

import pytest

from conftest import BUILD, CLI, REPO, VERSION, needs_build, run


def commands():
    """Every command of the argument parser, as page names ("tender", "tender.directory.add", ...)."""
    tree = json.loads(run([CLI, "--experimental-dump-help"]).stdout)["command"]
    names = []

    def walk(node, prefix):
        names.append(prefix)
        for sub in node.get("subcommands", []):
            if sub["commandName"] != "help":
                walk(sub, f"{prefix}.{sub['commandName']}")
    walk(tree, "tender")
    return names


def man_warnings(path):
    env = dict(os.environ, MANWIDTH="80", LC_ALL="C.UTF-8")
    done = subprocess.run(["man", "--warnings", "-l", path], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr.strip()


@needs_build
def test_a_page_per_command():
    pages = set(os.listdir(os.path.join(BUILD, "man")))
    expected = {f"{name}.1" for name in commands()}
    assert expected <= pages, f"missing pages: {sorted(expected - pages)}"
    assert len(expected) > 15 and "tender.directory.add.1" in expected


@needs_build
@pytest.mark.skipif(shutil.which("man") is None, reason="man is not installed")
def test_pages_render_without_warnings():
    for page in sorted(os.listdir(os.path.join(BUILD, "man"))):
        text, warnings = man_warnings(os.path.join(BUILD, "man", page))
        assert warnings == "", f"{page}: {warnings}"
        assert "NAME" in text and "SYNOPSIS" in text
    text, _ = man_warnings(os.path.join(BUILD, "man", "tender.verify.1"))
    assert "--checkpoint" in text and "--json" in text


@needs_build
@pytest.mark.skipif(shutil.which("man") is None, reason="man is not installed")
def test_libtender_3(tmp_path):
    run(["make", "-s", "--no-print-directory", "-C", REPO, "install", f"DESTDIR={tmp_path}", "PREFIX=/usr"])
    page = tmp_path / "usr/share/man/man3/libtender.3"
    text, warnings = man_warnings(str(page))
    assert warnings == ""
    assert "tender_engine_new" in text and "pkg-config" in text and f"libtender {VERSION}" in text
    assert "@" not in page.read_text(), "a placeholder was left"


@needs_build
def test_bash_completion_offers_subcommands():
    script = os.path.join(BUILD, "completions", "tender.bash")
    probe = ("source \"$1\"; COMP_WORDS=(tender ve); COMP_CWORD=1; COMP_LINE='tender ve'; COMP_POINT=9; "
             "$(complete -p tender | sed -E 's/.*-F ([^ ]+).*/\\1/'); printf '%s\\n' \"${COMPREPLY[@]}\"")
    out = run(["bash", "-c", probe, "bash", script]).stdout.split()
    assert "verify" in out


@needs_build
@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed (apt-get install zsh)")
def test_zsh_completion_loads():
    folder = os.path.join(BUILD, "completions")
    run(["zsh", "-f", "-c", f"fpath=({folder} $fpath); autoload -Uz compinit; compinit -u -D; "
         "autoload -Uz _tender; whence -w _tender"])


@needs_build
@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed (apt-get install fish)")
def test_fish_completion_offers_subcommands():
    script = os.path.join(BUILD, "completions", "tender.fish")
    out = run(["fish", "--no-config", "-c", f"source {script}; complete -C 'tender ve'"]).stdout
    assert "verify" in out


@needs_build
@pytest.mark.skipif(shutil.which("man") is None, reason="man is not installed")
def test_the_top_page_lists_every_subcommand_with_its_purpose():
    """tender(1) (issue 33.7): a SYNOPSIS, a DESCRIPTION listing every subcommand with its one line, and
    a section title of its own ("General Commands Manual", not groff's "BSD General Commands Manual")."""
    text, warnings = man_warnings(os.path.join(BUILD, "man", "tender.1"))
    assert warnings == ""
    header, footer = text.splitlines()[0], text.strip().splitlines()[-1]
    assert "General Commands Manual" in header and "BSD" not in header + footer, header + footer
    assert f"tender {VERSION}" in footer
    description = " ".join(text.split("DESCRIPTION", 1)[1].split("EXIT STATUS", 1)[0].split())
    tree = json.loads(run([CLI, "--experimental-dump-help"]).stdout)["command"]

    def walk(node, words):
        for sub in node.get("subcommands", []):
            if sub["commandName"] == "help":
                continue
            name = words + [sub["commandName"]]
            abstract = " ".join(sub["abstract"].split())
            assert f"{' '.join(name)} {abstract[:20]}" in description.replace("- ", "").replace("‐ ", ""), name
            walk(sub, name)
    walk(tree, [])


@needs_build
def test_every_subcommand_is_in_help():
    """No hidden subcommand (issue 33.7): `features`, which has a page, is listed by --help too."""
    helped = run([CLI, "--help"]).stdout
    for sub in json.loads(run([CLI, "--experimental-dump-help"]).stdout)["command"]["subcommands"]:
        if sub["commandName"] == "help":
            continue
        assert sub.get("shouldDisplay", True), sub["commandName"]
        assert f"  {sub['commandName']} " in helped, sub["commandName"]
    assert "features" in helped


@needs_build
def test_help_texts_say_what_the_code_does():
    """tender verify --help names the columns and balances it checks; directory import points to the
    directory schema, docs/directory.md (issue 33.8)."""
    verify = " ".join(run([CLI, "verify", "--help"]).stdout.split())
    assert "column" in verify and "balance" in verify and "signature" in verify
    imported = run([CLI, "directory", "import", "--help"]).stdout
    assert "docs/directory.md" in imported and "docs/json.md" not in imported
    assert os.path.exists(os.path.join(REPO, "docs", "directory.md"))


def test_make_help_lists_every_target_with_one_line():
    """make help (issue 33.7): every target of .PHONY, each on one line with what it does."""
    with open(os.path.join(REPO, "Makefile"), encoding="utf-8") as f:
        makefile = f.read()
    phony = re.search(r"^\.PHONY:((?:[^\n]*\\\n)*[^\n]*)", makefile, flags=re.M).group(1).replace("\\\n", " ").split()
    lines = run(["make", "-s", "--no-print-directory", "-C", REPO, "help"]).stdout.splitlines()
    described = {line.split()[0]: line.split(None, 1)[1] for line in lines if len(line.split()) > 1}
    missing = [t for t in phony if t not in described]
    assert missing == [], f"make help does not list: {missing}"
    assert len(lines) == len(described) and len(set(lines)) == len(lines)
