"""``mkdocs serve``'s poll (plugin/livereload-poll.js), run under Node with MkDocs' own injected
script after it: the page is asked after each rebuild, and reloaded only if it did not answer."""

from __future__ import annotations

import json
import subprocess

import mkdocs.livereload

from course_calculators import contract
from course_calculators.plugin import live, node

POLL_RUN = r"""
const vm = require("node:vm");
const fs = require("node:fs");
const [poll, mkdocsScript, cancel] = [fs.readFileSync(process.argv[2], "utf8"), process.argv[3], process.argv[4] === "1"];
const log = [];
const listeners = {};
const doc = { visibilityState: "visible", dispatchEvent(e) { log.push(["event", e.type, e.detail.epoch]); if (cancel) e.preventDefault(); return !e.defaultPrevented; } };
let answers = ["100", "250"];
class XHR { open(m, url) { log.push(["GET", url]); } send() { const text = answers.shift(); if (text === undefined) return; setTimeout(() => this.onloadend.call({ responseText: text, status: 200 }), 0); } abort() {} }
class CustomEvent { constructor(type, init) { this.type = type; this.detail = init.detail; this.defaultPrevented = false; } preventDefault() { this.defaultPrevented = true; } }
const win = { document: doc, console: { log() {} }, XMLHttpRequest: XHR, CustomEvent, setTimeout, clearTimeout,
  location: { reload() { log.push(["reload"]); } },
  addEventListener(type, fn) { (listeners[type] ||= []).push(fn); } };
win.window = win;
const context = vm.createContext(win);
vm.runInContext(`${poll}(window, "calculators:rebuilt");`, context);
vm.runInContext(mkdocsScript, context);
listeners.load.forEach((fn) => fn());
setTimeout(() => console.log(JSON.stringify(log)), 50);
"""


def run_poll(tmp_path, cancel: bool) -> list:
    script = mkdocs.livereload._SCRIPT_TEMPLATE.substitute(epoch=100, request_id=7)
    runner = tmp_path / "run.cjs"
    runner.write_text(POLL_RUN)
    out = subprocess.run([node.find_node(), str(runner), str(live.POLL_SCRIPT), script, "1" if cancel else "0"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def test_after_a_rebuild_the_poll_asks_the_page_and_reloads_only_if_it_did_not_answer(tmp_path):
    # MkDocs' own script, as it injects it, run after the poll: its call polls through the poll.
    assert run_poll(tmp_path, cancel=False) == [
        ["GET", "/livereload/100/7"], ["GET", "/livereload/100/7"],  # 100: no rebuild yet, ask again
        ["event", contract.LIVE_EVENT, 250], ["reload"]]
    # A page that cancels the event keeps itself, and waits for the rebuild after this one.
    assert run_poll(tmp_path, cancel=True) == [
        ["GET", "/livereload/100/7"], ["GET", "/livereload/100/7"], ["event", contract.LIVE_EVENT, 250],
        ["GET", "/livereload/250/7"]]
