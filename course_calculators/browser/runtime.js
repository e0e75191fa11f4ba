// Page side of the calculators: binds every `.calc` widget to one shared Python worker.
//
// The HTML arrives with correct outputs for the defaults (computed at build time by the same
// Python). This script only moves values between the form and the worker: it never computes a
// number. `data-state` goes static → loading → ready (or error). Latest value wins per widget:
// while a run is in flight, further inputs only mark the widget dirty, and one more run with the
// newest inputs follows when the result arrives — a burst of inputs never queues a backlog.
// The worker lives for the whole page session and survives mkdocs-material's instant navigation.
(function () {
  "use strict";

  const MSG = Object.freeze({
    INIT: "init", RUN: "run", PROGRESS: "progress", READY: "ready", RESULT: "result", ERROR: "error",
  });
  const STATE = Object.freeze({ STATIC: "static", LOADING: "loading", READY: "ready", ERROR: "error" });
  // Pyodide does not reject when its wasm fails to download: it waits forever. Past this time the
  // widgets say interactive mode is unavailable and keep their pre-rendered numbers.
  const BOOT_TIMEOUT_MS = window.calculatorsBootTimeoutMs || 60000;

  // boot.js (top of <head>) parsed the runtime meta tag and, on a page with widgets, already
  // started the worker.
  const boot = window.calculatorsBoot || null;
  const runtime = boot ? boot.runtime : null;
  // Python cannot be interrupted from outside (that needs SharedArrayBuffer, hence cross-origin
  // isolation headers, which GitHub Pages cannot send): a calculation that runs past this limit
  // ends its worker, and a new one boots (from the snapshot, in about a second).
  const RUN_TIMEOUT_MS = window.calculatorsRunTimeoutMs || 10000;
  // A page whose calculations keep running away stops restarting Python after this many times.
  const MAX_RESTARTS = 3;
  const URL_INTERVAL_MS = 250;
  const widgets = new Map(); // DOM id → Widget
  let worker = null;
  let workerReady = false;
  let workerFailed = null;
  let bootTimer = 0;
  let progress = "Loading Python…";
  let chartLib = null;

  // -- the worker --------------------------------------------------------------------------

  function ensureWorker() {
    if (worker || workerFailed || !runtime) return;
    try {
      worker = boot.start();
    } catch (err) {
      failAll("Interactive mode is unavailable: " + err.message);
      return;
    }
    worker.onmessage = (event) => onWorkerMessage(event.data || {});
    worker.onerror = (event) => {
      event.preventDefault();
      failAll("Interactive mode is unavailable (the Python runtime did not load). The values shown are for the defaults.");
    };
    boot.messages.splice(0).forEach(onWorkerMessage); // sent before this script took the worker over
    if (!workerReady && !workerFailed) {
      clearTimeout(bootTimer);
      bootTimer = setTimeout(() => {
        if (!workerReady) {
          failAll(`Interactive mode is unavailable: Python did not start within ${Math.round(BOOT_TIMEOUT_MS / 1000)} s. The values shown are for the defaults.`);
        }
      }, BOOT_TIMEOUT_MS);
    }
  }

  /** A calculation ran past the time limit: end the worker, tell that widget, start a new one. */
  function replaceWorker(culprit) {
    const limit = window.calculatorsRuntime.runTimeoutMs;
    boot.stop();
    worker = null;
    workerReady = false;
    window.calculatorsRuntime.restarts += 1;
    widgets.forEach((w) => {
      if (!w.inflight) return;
      w.cancelRun(); // the new worker recomputes it (READY), except the culprit
      w.dirty = w !== culprit;
    });
    culprit.stalled = true;
    culprit.setState(STATE.ERROR);
    culprit.message.textContent = `This calculation took longer than ${formatSeconds(limit)} and was stopped. ` +
      "Python restarted; change an input to try again.";
    culprit.setStatus("Stopped: the calculation took too long");
    if (window.calculatorsRuntime.restarts > MAX_RESTARTS) {
      failAll("Interactive mode was switched off: calculations kept running too long. The values shown are the last computed.");
      return;
    }
    progress = "Restarting Python…";
    ensureWorker();
  }

  function formatSeconds(ms) {
    return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms)} ms`;
  }

  function onWorkerMessage(msg) {
    switch (msg.type) {
      case MSG.PROGRESS:
        progress = msg.stage;
        widgets.forEach((w) => w.setStatus(progress));
        break;
      case MSG.READY:
        clearTimeout(bootTimer);
        workerReady = true;
        window.calculatorsRuntime.bootMs = msg.bootMs;
        window.calculatorsRuntime.python = msg.python;
        window.calculatorsRuntime.bootMode = msg.mode;
        window.calculatorsRuntime.timings = Object.fromEntries(
          Object.entries(msg.timings || {}).map(([k, t]) => [k, Math.round(t - performance.timeOrigin)]));
        widgets.forEach((w) => { if (!w.stalled) w.request(); });
        registerServiceWorker();
        break;
      case MSG.RESULT: {
        const w = widgets.get(msg.widget);
        if (w) w.onResult(msg.seq, msg.result);
        break;
      }
      case MSG.ERROR: {
        if (msg.widget) {
          const w = widgets.get(msg.widget);
          if (w) w.onError(msg.seq, msg.message);
        } else {
          failAll("Interactive mode is unavailable: " + msg.message);
        }
        break;
      }
    }
  }

  // -- offline reading ---------------------------------------------------------------------
  //
  // The service worker (sw.js, written by the plugin) precaches the whole site so that it works
  // offline after this visit. It is registered only once Python is ready, or once a page without
  // widgets has loaded, so that its downloads never compete with the first boot; never from
  // inside a frame (an embed on another site should not fill its reader's storage).
  let swRegistered = false;

  function registerServiceWorker() {
    if (swRegistered || !runtime || !runtime.sw || !("serviceWorker" in navigator) || window.top !== window) return;
    swRegistered = true;
    navigator.serviceWorker.register(runtime.sw).catch((err) => console.warn("calculators: offline mode unavailable:", err.message));
  }

  window.addEventListener("load", () => { if (!worker) registerServiceWorker(); });

  function failAll(message) {
    clearTimeout(bootTimer);
    workerFailed = message;
    if (boot) boot.stop();
    worker = null;
    widgets.forEach((w) => w.fail(message));
  }

  // -- one widget --------------------------------------------------------------------------

  class Widget {
    constructor(root) {
      this.root = root;
      this.id = root.id;
      this.calc = root.dataset.calc;
      this.embed = root.hasAttribute("data-embed");
      this.defaults = JSON.parse(root.dataset.defaults || "{}"); // the calculator's own defaults
      this.initial = JSON.parse(root.dataset.initial || root.dataset.defaults || "{}"); // this page's fence
      this.fields = new Map();
      this.sliders = new Map();
      root.querySelectorAll("input[type=number][name], select[name]").forEach((el) => this.fields.set(el.name, el));
      root.querySelectorAll("input[type=range][data-for]").forEach((el) => this.sliders.set(el.dataset.for, el));
      this.outputs = root.querySelectorAll("output[data-output]");
      this.message = root.querySelector("[data-message]");
      this.notice = root.querySelector("[data-notice]");
      this.status = root.querySelector("[data-status]");
      this.charts = [];
      try {
        this.chartData = JSON.parse((root.querySelector("[data-charts]") || { dataset: {} }).dataset.charts || "[]");
      } catch (err) {
        this.chartData = [];
      }
      this.seq = 0;
      this.inflight = 0;
      this.dirty = false;
      this.announcer = new Announcer(this);
      this.bind();
      this.applyUrl();
      this.watchVisibility();
      this.drawCharts(this.chartData);
      this.bindSource();
    }

    // "Show the Python" loads the module's highlighted source (a file of this site, made at build
    // time) the first time it opens; until then, and if loading fails, it holds a link to it.
    bindSource() {
      const details = this.root.querySelector("details.calc__source[data-source]");
      if (!details) return;
      const load = async () => {
        if (!details.open || details.dataset.loaded) return;
        details.dataset.loaded = "1";
        try {
          const url = new URL(details.dataset.source, document.baseURI);
          if (url.origin !== location.origin) throw new Error("not this site's file");
          const response = await fetch(url);
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          const doc = new DOMParser().parseFromString(await response.text(), "text/html");
          const code = doc.querySelector(".highlight");
          if (!code) return;
          const copy = document.importNode(code, true);
          // As mkdocs-material does for the code blocks it finds at load: a scrolling block
          // must be reachable by keyboard.
          copy.querySelectorAll("pre > code").forEach((el) => el.setAttribute("tabindex", "0"));
          details.querySelector(".calc__code").replaceChildren(copy);
        } catch (err) {
          delete details.dataset.loaded; // the link stays; opening again retries
        }
      };
      details.addEventListener("toggle", load);
      load();
    }

    // Canvas charts are drawn only while the widget is on (or near) the screen: Chart.js is
    // loaded, and a chart redrawn, when a reader can see it, not during the page's start-up or
    // for every step of a slider on a widget scrolled out of view. Summaries and data tables
    // (the charts' text alternatives) are always current.
    watchVisibility() {
      this.visible = !("IntersectionObserver" in window);
      this.chartsStale = false;
      if (this.visible || !this.root.querySelector("figure[data-chart] canvas")) { this.visible = true; return; }
      this.observer = new IntersectionObserver((entries) => {
        this.visible = entries[entries.length - 1].isIntersecting;
        if (this.visible && this.chartsStale) this.drawCharts(this.chartData);
      }, { rootMargin: "200px 0px" });
      this.observer.observe(this.root);
    }

    bind() {
      const form = this.root.querySelector("form");
      if (form) form.addEventListener("submit", (e) => e.preventDefault());
      this.fields.forEach((el, name) => {
        if (el.tagName === "SELECT") {
          el.addEventListener("change", () => this.request());
        } else {
          el.addEventListener("input", () => { this.syncSlider(name, el.value); this.request(); });
          el.addEventListener("change", () => { this.finalize = true; this.request(); });
        }
      });
      this.sliders.forEach((slider, name) => {
        slider.addEventListener("input", () => {
          const field = this.fields.get(name);
          if (!field) return;
          field.value = sliderToValue(slider);
          slider.setAttribute("aria-valuetext", field.value);
          this.request();
        });
      });
      this.root.querySelectorAll("button[data-preset]").forEach((btn) => {
        btn.addEventListener("click", () => this.applyPreset(btn));
      });
      const reset = this.root.querySelector('[data-action="reset"]');
      if (reset) reset.addEventListener("click", () => { this.setValues(this.initial); this.showNotice(""); this.request(); });
      const copy = this.root.querySelector('[data-action="copy-link"]');
      if (copy) copy.addEventListener("click", () => this.copyLink(copy));
      bindEmbedSnippet(this);
    }

    applyPreset(btn) {
      let values = {};
      try { values = JSON.parse(btn.dataset.values || "{}"); } catch (err) { values = {}; }
      this.setValues(Object.assign({}, this.defaults, values));
      this.root.querySelectorAll("button[data-preset]").forEach((b) => b.setAttribute("aria-pressed", String(b === btn)));
      this.showNotice(btn.dataset.notice || "");
      this.finalize = true;
      this.request();
    }

    showNotice(text) {
      if (!this.notice) return;
      this.notice.textContent = text;
      this.notice.hidden = !text;
    }

    setValues(values) {
      Object.keys(values).forEach((name) => {
        const field = this.fields.get(name);
        if (!field) return;
        field.value = String(values[name]);
        this.syncSlider(name, field.value);
      });
    }

    syncSlider(name, value) {
      const slider = this.sliders.get(name);
      const v = Number(value);
      if (!slider || value === "" || !Number.isFinite(v)) return;
      slider.value = String(slider.dataset.stops ? nearestStop(stopsOf(slider), v) : v);
      slider.setAttribute("aria-valuetext", value); // a log slider's own value is an exponent
    }

    urlKey(name) { return this.embed ? name : this.calc + "." + name; }

    applyUrl() {
      const params = new URLSearchParams(location.search);
      const values = {};
      const unknown = {};
      let any = false;
      params.forEach((value, key) => {
        const prefix = this.embed ? "" : this.calc + ".";
        if (!key.startsWith(prefix)) return;
        const name = key.slice(prefix.length);
        if (this.fields.has(name)) { values[name] = value; any = true; }
        else if (prefix && name) unknown[name] = value; // an embed page's plain keys may be anyone's
      });
      if (any) { this.fromUrl = true; this.setValues(values); }
      // The first run sends the link's own strings, not what the form made of them (a number field
      // empties "0x1F", a select cannot hold "h900"), and our prefix's unknown keys: Python's notes
      // then name what the link said. A field edited since keeps its edit.
      const shown = {};
      Object.keys(values).forEach((name) => { shown[name] = this.fields.get(name).value; });
      this.urlRaw = Object.assign(unknown, values);
      this.urlShown = shown;
    }

    runInputs() {
      const raw = this.rawInputs();
      if (this.urlRaw) {
        Object.keys(this.urlRaw).forEach((name) => {
          if (!this.fields.has(name) || this.fields.get(name).value === this.urlShown[name]) raw[name] = this.urlRaw[name];
        });
      }
      return raw;
    }

    rawInputs() {
      const raw = {};
      this.fields.forEach((el, name) => { raw[name] = el.value; });
      return raw;
    }

    setState(state) {
      this.root.dataset.state = state;
      // An embed tells its host page (after the message text is set, in this same task).
      if (state === STATE.ERROR && embedPage && this.root === embedPage.root) {
        queueMicrotask(() => embedPost({ type: "error", id: this.calc, message: this.message.textContent }));
      }
    }

    setStatus(text) { if (this.status) this.status.textContent = text; }

    start() {
      if (!runtime) workerFailed = workerFailed || "Interactive mode is unavailable (the runtime did not load). The values shown are for the defaults.";
      if (workerFailed) { this.fail(workerFailed); return; }
      this.setState(STATE.LOADING);
      this.setStatus(progress);
      ensureWorker();
      if (workerReady) this.request();
    }

    request() {
      this.stalled = false;
      if (!worker || !workerReady) { this.dirty = true; return; } // READY sends every widget's inputs
      if (this.inflight) { this.dirty = true; this.setState(STATE.LOADING); return; }
      this.dirty = false;
      this.seq += 1;
      this.inflight = this.seq;
      if (this.root.dataset.state !== STATE.READY) this.setState(STATE.LOADING);
      worker.postMessage({ type: MSG.RUN, widget: this.id, calc: this.calc, seq: this.seq, inputs: this.runInputs() });
      this.runTimer = setTimeout(() => replaceWorker(this), window.calculatorsRuntime.runTimeoutMs);
    }

    cancelRun() {
      clearTimeout(this.runTimer);
      this.inflight = 0;
    }

    onResult(seq, result) {
      if (seq !== this.inflight) return;
      this.cancelRun();
      if (this.dirty) { this.request(); return; } // newer inputs arrived meanwhile: only they count
      this.render(result);
      this.setState(STATE.READY);
      this.setStatus("Live: computed by Python in your browser");
    }

    onError(seq, message) {
      if (seq !== this.inflight) return;
      this.cancelRun();
      if (this.dirty) { this.request(); return; }
      this.setState(STATE.ERROR);
      this.message.textContent = "This calculation failed: " + message;
      this.setStatus("Error");
    }

    fail(message) {
      this.cancelRun();
      this.setState(STATE.ERROR);
      this.message.textContent = message;
      this.setStatus("Static values (interactive mode unavailable)");
    }

    render(result) {
      this.urlRaw = null; // from now on the form holds Python's values
      this.outputs.forEach((el) => {
        const name = el.dataset.output;
        if (!(name in result.raw)) return;
        el.dataset.value = result.raw[name];
        if (el.hasAttribute("data-bool")) el.dataset.bool = result.raw[name];
        el.textContent = result.text[name];
      });
      this.message.textContent = (result.notes || []).join(" ");
      const focused = document.activeElement;
      const finalize = this.finalize;
      this.finalize = false;
      Object.keys(result.inputs).forEach((name) => {
        const field = this.fields.get(name);
        if (!field) return;
        const value = String(result.inputs[name]);
        if (field.tagName === "SELECT" || finalize || field !== focused) field.value = value;
        this.syncSlider(name, value);
      });
      this.chartData = result.charts || [];
      this.drawCharts(this.chartData);
      this.updateUrl(result.inputs);
      this.announcer.rendered();
      embedRendered(this, result);
    }

    changed(inputs) {
      const out = {};
      Object.keys(inputs).forEach((name) => {
        if (String(inputs[name]) !== String(this.defaults[name])) out[name] = String(inputs[name]);
      });
      return out;
    }

    linkFor(inputs) {
      const url = new URL(location.href);
      const prefix = this.embed ? "" : this.calc + ".";
      Array.from(url.searchParams.keys()).forEach((key) => {
        if (key.startsWith(prefix) && this.fields.has(key.slice(prefix.length))) url.searchParams.delete(key);
      });
      const changed = this.changed(inputs);
      Object.keys(changed).forEach((name) => url.searchParams.set(this.urlKey(name), changed[name]));
      return url;
    }

    // The address bar follows the inputs, at most every URL_INTERVAL_MS (history.replaceState
    // costs a few ms, and browsers rate-limit it): the first change at once, the last one always.
    updateUrl(inputs) {
      this.urlInputs = inputs;
      if (this.urlTimer) return;
      const write = () => {
        const url = this.linkFor(this.urlInputs);
        if (url.href !== location.href) history.replaceState(history.state, "", url.href);
      };
      write();
      this.urlTimer = setTimeout(() => { this.urlTimer = 0; write(); }, URL_INTERVAL_MS);
    }

    copyLink(button) {
      const url = this.linkFor(this.rawInputs());
      const done = (ok) => {
        const label = button.textContent;
        button.textContent = ok ? "Link copied" : "Copy failed";
        setTimeout(() => { button.textContent = label; }, 1500);
      };
      if (navigator.clipboard) navigator.clipboard.writeText(url.href).then(() => done(true), () => done(false));
      else done(false);
    }

    // -- charts ----------------------------------------------------------------------------

    drawCharts(data) {
      const figures = this.root.querySelectorAll("figure[data-chart]");
      figures.forEach((figure, i) => {
        const chart = data[i];
        if (!chart) return;
        const summary = figure.querySelector("[data-chart-summary]");
        if (summary) summary.textContent = chart.summary;
        const canvas = figure.querySelector("canvas");
        if (canvas) canvas.setAttribute("aria-label", chart.summary);
        renderTable(figure.querySelector("[data-chart-table]"), chart);
        if (chart.kind === "grid") { renderGrid(figure, chart); return; }
        if (!this.visible) { this.chartsStale = true; return; }
        withChartLib((Chart) => this.drawChart(Chart, i, canvas, chart));
      });
      if (this.visible) this.chartsStale = false;
    }

    drawChart(Chart, i, canvas, chart) {
      if (!canvas || !canvas.isConnected) return;
      const config = chartConfig(chart, this.root);
      const existing = this.charts[i];
      if (existing && existing.canvas === canvas && existing.config.type === config.type) {
        existing.data = config.data;
        existing.options = config.options;
        existing.update("none");
      } else {
        if (existing) existing.destroy();
        this.charts[i] = new Chart(canvas, config);
      }
    }

    redrawCharts() {
      this.charts.forEach((c) => c && c.destroy());
      this.charts = [];
      this.drawCharts(this.chartData);
    }
  }

  // -- announcements -----------------------------------------------------------------------
  //
  // Screen readers hear a short summary of a widget's main outputs through its polite live region
  // ([data-announce]) once the reader's input has settled: no result for ANNOUNCE_SETTLE_MS after
  // the last one. Dragging a slider or holding an arrow key thus yields one announcement, not one
  // per step. Only results that follow the reader's own input are announced (not the first
  // Python result after boot, nor values from the URL). Notes and errors stay in [data-message].
  const ANNOUNCE_SETTLE_MS = 750;

  class Announcer {
    constructor(widget) {
      this.root = widget.root;
      this.region = widget.root.querySelector("[data-announce]");
      this.armed = false;
      this.timer = 0;
      this.last = "";
      if (!this.region) return;
      const arm = () => { this.armed = true; clearTimeout(this.timer); this.timer = 0; };
      this.root.addEventListener("input", arm);
      this.root.addEventListener("change", arm);
      this.root.addEventListener("click", (e) => {
        if (e.target.closest && e.target.closest('button[data-preset], [data-action="reset"]')) arm();
      });
    }

    get pending() { return Boolean(this.timer); }

    rendered() {
      if (!this.region || !this.armed) return;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.speak(), ANNOUNCE_SETTLE_MS);
    }

    speak() {
      this.timer = 0;
      this.armed = false;
      const text = this.summary();
      if (!text || text === this.last) return;
      this.last = text;
      this.region.textContent = text;
    }

    // "Label: text; Label: text" over the primary outputs (all outputs when none is primary).
    summary() {
      let outs = this.root.querySelectorAll(".calc__out--primary");
      if (!outs.length) outs = this.root.querySelectorAll(".calc__out");
      return Array.from(outs).map((out) => {
        const dt = out.querySelector("dt");
        const value = out.querySelector("output");
        return (dt ? dt.textContent.trim() + ": " : "") + (value ? value.textContent.trim() : "");
      }).join("; ");
    }
  }

  // -- sliders -----------------------------------------------------------------------------

  // A log slider's positions are the values Python listed in data-stops (render.log_stops).
  function stopsOf(slider) {
    if (!slider._stops) slider._stops = JSON.parse(slider.dataset.stops);
    return slider._stops;
  }

  function nearestStop(stops, v) {
    let best = 0;
    stops.forEach((s, i) => { if (Math.abs(Math.log(s) - Math.log(v)) < Math.abs(Math.log(stops[best]) - Math.log(v))) best = i; });
    return v > 0 ? best : 0;
  }

  function sliderToValue(slider) {
    if (!slider.dataset.stops) return slider.value;
    return String(stopsOf(slider)[Number(slider.value)]);
  }

  // -- chart drawing (presentation only: Python chose every number) ------------------------

  function withChartLib(fn) {
    if (window.Chart) { fn(window.Chart); return; }
    if (!runtime || !runtime.charts) return;
    if (!chartLib) {
      chartLib = new Promise((resolve, reject) => {
        const s = document.createElement("script");
        s.src = runtime.charts;
        if (runtime.chartsIntegrity) s.integrity = runtime.chartsIntegrity;
        s.async = true;
        s.onload = () => resolve(window.Chart);
        s.onerror = () => reject(new Error("chart library failed to load"));
        document.head.appendChild(s);
      });
    }
    chartLib.then(fn, () => {});
  }

  // The palette's colours, read once per palette (getComputedStyle forces a style recalculation;
  // reading it on every result cost milliseconds per slider step).
  let paletteColours = null;

  function palette(root) {
    if (paletteColours) return paletteColours;
    const style = getComputedStyle(root);
    const v = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
    paletteColours = {
      fg: v("--md-default-fg-color--light", "#666"),
      grid: v("--md-default-fg-color--lightest", "#ddd"),
      series: [1, 2, 3, 4, 5].map((n) => v("--calc-series-" + n, "#448aff")),
      rule: v("--calc-rule", "#e53935"),
    };
    return paletteColours;
  }

  function chartConfig(chart, root) {
    const { fg, grid, series: colors, rule } = palette(root);
    const isBar = chart.kind === "bar";
    const datasets = chart.series.map((s, i) => {
      const color = s.kind === "rule" ? rule : colors[i % colors.length];
      const ds = {
        label: s.name, data: s.values, borderColor: color, backgroundColor: color,
        type: s.kind === "rule" ? "line" : (isBar ? "bar" : "line"),
        borderWidth: 2, pointRadius: 0, tension: 0,
      };
      if (s.kind === "rule") { ds.borderDash = [6, 4]; }
      if (!isBar && s.kind !== "rule" && chart.marker !== null && chart.marker !== undefined) {
        ds.pointRadius = s.values.map((_, j) => (j === chart.marker ? 5 : 0));
      }
      return ds;
    });
    return {
      type: isBar ? "bar" : "line",
      data: { labels: chart.labels, datasets },
      options: {
        animation: false, responsive: true, maintainAspectRatio: false,
        interaction: { mode: "index", intersect: false },
        plugins: { legend: { labels: { color: fg, boxWidth: 12 } }, tooltip: { enabled: true } },
        scales: {
          x: { title: { display: true, text: chart.x_label, color: fg }, ticks: { color: fg }, grid: { color: grid } },
          y: {
            type: chart.y_log ? "logarithmic" : "linear", beginAtZero: !chart.y_log,
            title: { display: true, text: chart.y_label, color: fg }, ticks: { color: fg }, grid: { color: grid },
          },
        },
      },
    };
  }

  function renderTable(container, chart) {
    if (!container) return;
    const table = document.createElement("table");
    if (chart.kind === "grid") {
      const body = table.createTBody();
      chart.series.forEach((row) => {
        const tr = body.insertRow();
        const th = document.createElement("th");
        th.scope = "row"; th.textContent = row.name; tr.appendChild(th);
        row.values.forEach((cell) => { tr.insertCell().textContent = cell === null ? "·" : String(cell); });
      });
    } else {
      const head = table.createTHead().insertRow();
      [chart.x_label].concat(chart.series.map((s) => s.name + " (" + chart.y_label + ")")).forEach((text) => {
        const th = document.createElement("th"); th.scope = "col"; th.textContent = text; head.appendChild(th);
      });
      const body = table.createTBody();
      chart.labels.forEach((label, i) => {
        const tr = body.insertRow();
        const th = document.createElement("th"); th.scope = "row"; th.textContent = label; tr.appendChild(th);
        chart.series.forEach((s) => { tr.insertCell().textContent = String(s.values[i]); });
      });
    }
    container.replaceChildren(table);
  }

  function renderGrid(figure, chart) {
    const box = figure.querySelector(".calc__canvas");
    if (!box) return;
    const grid = document.createElement("div");
    grid.className = "calc__grid";
    grid.setAttribute("role", "img");
    grid.setAttribute("aria-label", chart.summary);
    chart.series.forEach((row) => {
      const line = document.createElement("div");
      line.className = "calc__grid-row";
      const label = document.createElement("span");
      label.className = "calc__grid-label";
      label.textContent = row.name;
      line.appendChild(label);
      row.values.forEach((cell) => {
        const c = document.createElement("span");
        c.className = "calc__grid-cell";
        if (cell === null) c.classList.add("calc__grid-cell--free");
        else { c.style.setProperty("--owner-hue", String((Number(cell) * 47) % 360)); c.textContent = String(cell); }
        line.appendChild(c);
      });
      grid.appendChild(line);
    });
    box.replaceChildren(grid);
  }

  // -- embedding ---------------------------------------------------------------------------
  //
  // On a chapter page: each widget's "Embed this calculator" snippet. On an embed page
  // (embed/<id>/, a widget root with data-embed): the theme, and, inside a frame, messages to and
  // from the host page. Every message is a plain object with source: "calculators":
  //   embed → host  {type: "ready", id, version}                    Python computed the first result
  //                 {type: "resize", height}                        the content's height (CSS px), on change
  //                 {type: "values", id, inputs, outputs, text}     after each result
  //                 {type: "error", id, message}                    the widget failed (values stay)
  //   host → embed  {type: "set", inputs: {<param>: string|number}} known parameters only
  //                 {type: "get"}                                   answered with "values"
  // Origin rule: a message is read only when its source is window.parent and its origin is the
  // parent's: the origin of document.referrer, or, when the host withheld its referrer, the
  // origin of the first valid message. Messages go to that origin; while it is unknown, to "*"
  // (they carry only the calculator's public inputs and outputs). Values from a message reach the
  // same fields a reader types in, and from there Python's checks; nothing reaches innerHTML.

  const EMBED_SOURCE = "calculators";
  const EMBED_VALUE_MAX = 64; // characters of one string value in a "set" message

  function isPlainObject(value) {
    if (value === null || typeof value !== "object") return false;
    const proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  }

  function siteRoot() {
    // The worker lives at <site>/assets/calc/worker.js, whatever the page's depth or sub-path.
    return runtime && runtime.worker ? new URL("../../", runtime.worker) : new URL("/", location.href);
  }

  function embedSnippet(widget, inputs) {
    const attr = (s) => String(s).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
    const params = new URLSearchParams(widget.changed(inputs)).toString();
    const script = new URL("assets/calc/embed.js", siteRoot()).href;
    return `<div data-calculator-embed="${attr(widget.calc)}"${params ? ` data-params="${attr(params)}"` : ""}></div>\n` +
      `<script src="${attr(script)}" async></script>`;
  }

  function bindEmbedSnippet(widget) {
    const code = widget.root.querySelector("[data-embed-snippet]");
    if (!code) return;
    widget.snippet = code;
    code.textContent = embedSnippet(widget, widget.rawInputs());
    const button = widget.root.querySelector('[data-action="copy-embed"]');
    if (!button) return;
    button.addEventListener("click", () => {
      const label = button.textContent;
      const done = (ok) => {
        button.textContent = ok ? "Snippet copied" : "Copy failed";
        setTimeout(() => { button.textContent = label; }, 1500);
      };
      if (navigator.clipboard) navigator.clipboard.writeText(code.textContent).then(() => done(true), () => done(false));
      else done(false);
    });
  }

  // The embed page's own state: null on every other page.
  const embedPage = (function () {
    const root = document.querySelector(".calc[data-embed]");
    if (!root) return null;
    const query = new URLSearchParams(location.search).get("theme");
    const forced = query === "dark" || query === "light" ? query : null;
    const media = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
    const applyTheme = () => {
      const dark = forced ? forced === "dark" : Boolean(media && media.matches);
      document.body.setAttribute("data-md-color-scheme", dark ? "slate" : "default");
    };
    applyTheme();
    if (!forced && media && media.addEventListener) media.addEventListener("change", applyTheme);
    const framed = window.parent !== window;
    let origin = "";
    try { if (document.referrer) origin = new URL(document.referrer).origin; } catch (err) { origin = ""; }
    return { root, framed, origin: origin === "null" ? "" : origin, ready: false, last: null, height: -1 };
  })();

  function embedPost(msg) {
    if (!embedPage || !embedPage.framed) return;
    window.parent.postMessage(Object.assign({ source: EMBED_SOURCE }, msg), embedPage.origin || "*");
  }

  function embedValues(widget, result) {
    return { type: "values", id: widget.calc, inputs: result.inputs, outputs: result.raw, text: result.text };
  }

  function embedRendered(widget, result) {
    if (widget.snippet) widget.snippet.textContent = embedSnippet(widget, result.inputs);
    if (!embedPage || widget.root !== embedPage.root) return;
    const link = document.querySelector("a[data-chapter-link]");
    if (link) {
      // "Open in the chapter" carries the current inputs, with the chapter's prefixed keys.
      const url = new URL(link.href);
      Array.from(url.searchParams.keys()).forEach((key) => { if (key.startsWith(widget.calc + ".")) url.searchParams.delete(key); });
      const changed = widget.changed(result.inputs);
      Object.keys(changed).forEach((name) => url.searchParams.set(widget.calc + "." + name, changed[name]));
      link.href = url.href;
    }
    embedPage.last = result;
    if (!embedPage.ready) {
      embedPage.ready = true;
      embedPost({ type: "ready", id: widget.calc, version: runtime ? runtime.version : "" });
    }
    embedPost(embedValues(widget, result));
  }

  // Inputs from a "set" message, or null: every key a known parameter, every value a finite
  // number or a short string.
  function embedInputs(widget, inputs) {
    if (!isPlainObject(inputs)) return null;
    const names = Object.keys(inputs);
    if (!names.length) return null;
    const ok = names.every((name) => {
      const v = inputs[name];
      return widget.fields.has(name) &&
        ((typeof v === "number" && Number.isFinite(v)) || (typeof v === "string" && v.length <= EMBED_VALUE_MAX));
    });
    return ok ? inputs : null;
  }

  function onEmbedMessage(event) {
    if (!embedPage.framed || event.source !== window.parent) return;
    if (embedPage.origin && event.origin !== embedPage.origin) return;
    const msg = event.data;
    if (!isPlainObject(msg) || msg.source !== EMBED_SOURCE) return;
    const widget = Array.from(widgets.values()).find((w) => w.root === embedPage.root);
    if (!widget) return;
    if (msg.type === "set") {
      const values = embedInputs(widget, msg.inputs);
      if (!values) return;
      if (!embedPage.origin && event.origin !== "null") embedPage.origin = event.origin;
      widget.setValues(values);
      widget.finalize = true;
      widget.request();
    } else if (msg.type === "get") {
      if (!embedPage.origin && event.origin !== "null") embedPage.origin = event.origin;
      if (embedPage.last) embedPost(embedValues(widget, embedPage.last));
    }
  }

  function startEmbed() {
    if (!embedPage || !embedPage.framed) return;
    window.addEventListener("message", onEmbedMessage);
    const content = document.querySelector("[data-calc-embed-content]") || document.body;
    const report = () => {
      const height = Math.ceil(content.getBoundingClientRect().height);
      if (height === embedPage.height) return;
      embedPage.height = height;
      embedPost({ type: "resize", height });
    };
    if (window.ResizeObserver) new ResizeObserver(report).observe(content);
    else window.addEventListener("resize", report);
    report();
  }

  // -- page lifecycle ----------------------------------------------------------------------

  function hydrate() {
    widgets.forEach((w, id) => {
      if (w.root.isConnected) return;
      w.charts.forEach((c) => c && c.destroy());
      if (w.observer) w.observer.disconnect();
      widgets.delete(id);
    });
    document.querySelectorAll(".calc[data-calc]").forEach((root) => {
      if (root.dataset.bound) return;
      root.dataset.bound = "1";
      let w;
      try {
        w = new Widget(root);
      } catch (err) {
        console.error("calculators: cannot bind widget", root.id, err);
        return;
      }
      widgets.set(w.id, w);
      w.start();
    });
  }

  // Charts follow the light/dark palette toggle.
  new MutationObserver(() => { paletteColours = null; widgets.forEach((w) => w.redrawCharts()); })
    .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });

  window.calculatorsRuntime = { widgets, MSG, STATE, get ready() { return workerReady; }, bootMs: null, python: null, bootMode: null,
    timings: null, restarts: 0, runTimeoutMs: RUN_TIMEOUT_MS };
  startEmbed();

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(() => hydrate()); // mkdocs-material: every page, instant navigation included
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", hydrate);
  } else {
    hydrate();
  }
})();
