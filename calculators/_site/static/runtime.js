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

  const runtime = readRuntime();
  const widgets = new Map(); // DOM id → Widget
  let worker = null;
  let workerReady = false;
  let workerFailed = null;
  let bootTimer = 0;
  let progress = "Loading Python…";
  let chartLib = null;

  function readRuntime() {
    const meta = document.querySelector('meta[name="calculators-runtime"]');
    if (!meta) return null;
    try {
      const raw = JSON.parse(meta.getAttribute("content"));
      const abs = (u) => (u ? new URL(u, document.baseURI).href : "");
      return {
        worker: abs(raw.worker), lock: abs(raw.lock) + "?v=" + encodeURIComponent(raw.version || ""),
        charts: abs(raw.charts), version: raw.version,
      };
    } catch (err) {
      console.error("calculators: bad runtime meta tag", err);
      return null;
    }
  }

  // -- the worker --------------------------------------------------------------------------

  function ensureWorker() {
    if (worker || workerFailed || !runtime) return;
    try {
      worker = new Worker(runtime.worker, { type: "module", name: "calculators" });
    } catch (err) {
      failAll("Interactive mode is unavailable: " + err.message);
      return;
    }
    worker.onmessage = (event) => onWorkerMessage(event.data || {});
    worker.onerror = (event) => {
      event.preventDefault();
      failAll("Interactive mode is unavailable (the Python runtime did not load). The values shown are for the defaults.");
    };
    worker.postMessage({ type: MSG.INIT, lockFileURL: runtime.lock });
    bootTimer = setTimeout(() => {
      if (!workerReady) {
        failAll(`Interactive mode is unavailable: Python did not start within ${Math.round(BOOT_TIMEOUT_MS / 1000)} s. The values shown are for the defaults.`);
      }
    }, BOOT_TIMEOUT_MS);
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
        widgets.forEach((w) => w.request());
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

  function failAll(message) {
    clearTimeout(bootTimer);
    workerFailed = message;
    if (worker) worker.terminate();
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
      this.defaults = JSON.parse(root.dataset.defaults || "{}");
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
        this.chartData = JSON.parse((root.querySelector("script[data-charts]") || {}).textContent || "[]");
      } catch (err) {
        this.chartData = [];
      }
      this.seq = 0;
      this.inflight = 0;
      this.dirty = false;
      this.bind();
      this.applyUrl();
      this.drawCharts(this.chartData);
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
          this.request();
        });
      });
      this.root.querySelectorAll("button[data-preset]").forEach((btn) => {
        btn.addEventListener("click", () => this.applyPreset(btn));
      });
      const reset = this.root.querySelector('[data-action="reset"]');
      if (reset) reset.addEventListener("click", () => { this.setValues(this.defaults); this.showNotice(""); this.request(); });
      const copy = this.root.querySelector('[data-action="copy-link"]');
      if (copy) copy.addEventListener("click", () => this.copyLink(copy));
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
      slider.value = String(slider.dataset.scale === "log" ? (v > 0 ? Math.log2(v) : slider.min) : v);
    }

    urlKey(name) { return this.embed ? name : this.calc + "." + name; }

    applyUrl() {
      const params = new URLSearchParams(location.search);
      const values = {};
      let any = false;
      params.forEach((value, key) => {
        const prefix = this.embed ? "" : this.calc + ".";
        if (!key.startsWith(prefix)) return;
        const name = key.slice(prefix.length);
        if (this.fields.has(name)) { values[name] = value; any = true; }
      });
      // Unknown keys with our prefix, or bad values, are left to Python's notes.
      if (any) { this.fromUrl = true; this.setValues(values); }
    }

    rawInputs() {
      const raw = {};
      this.fields.forEach((el, name) => { raw[name] = el.value; });
      return raw;
    }

    setState(state) { this.root.dataset.state = state; }

    setStatus(text) { if (this.status) this.status.textContent = text; }

    start() {
      if (workerFailed) { this.fail(workerFailed); return; }
      this.setState(STATE.LOADING);
      this.setStatus(progress);
      ensureWorker();
      if (workerReady) this.request();
    }

    request() {
      if (!worker || !workerReady) { this.dirty = true; return; } // READY sends every widget's inputs
      if (this.inflight) { this.dirty = true; this.setState(STATE.LOADING); return; }
      this.dirty = false;
      this.seq += 1;
      this.inflight = this.seq;
      if (this.root.dataset.state !== STATE.READY) this.setState(STATE.LOADING);
      worker.postMessage({ type: MSG.RUN, widget: this.id, calc: this.calc, seq: this.seq, inputs: this.rawInputs() });
    }

    onResult(seq, result) {
      if (seq !== this.inflight) return;
      this.inflight = 0;
      if (this.dirty) { this.request(); return; } // newer inputs arrived meanwhile: only they count
      this.render(result);
      this.setState(STATE.READY);
      this.setStatus("Live: computed by Python in your browser");
    }

    onError(seq, message) {
      if (seq !== this.inflight) return;
      this.inflight = 0;
      if (this.dirty) { this.request(); return; }
      this.setState(STATE.ERROR);
      this.message.textContent = "This calculation failed: " + message;
      this.setStatus("Error");
    }

    fail(message) {
      this.inflight = 0;
      this.setState(STATE.ERROR);
      this.message.textContent = message;
      this.setStatus("Static values (interactive mode unavailable)");
    }

    render(result) {
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

    updateUrl(inputs) {
      const url = this.linkFor(inputs);
      if (url.href !== location.href) history.replaceState(history.state, "", url.href);
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
        withChartLib((Chart) => this.drawChart(Chart, i, canvas, chart));
      });
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

  // -- sliders -----------------------------------------------------------------------------

  function sliderToValue(slider) {
    const p = Number(slider.value);
    if (slider.dataset.scale !== "log") return slider.value;
    const v = Math.pow(2, p);
    return slider.hasAttribute("data-integer") ? String(Math.round(v)) : String(Number(v.toPrecision(3)));
  }

  // -- chart drawing (presentation only: Python chose every number) ------------------------

  function withChartLib(fn) {
    if (window.Chart) { fn(window.Chart); return; }
    if (!runtime || !runtime.charts) return;
    if (!chartLib) {
      chartLib = new Promise((resolve, reject) => {
        const s = document.createElement("script");
        s.src = runtime.charts;
        s.async = true;
        s.onload = () => resolve(window.Chart);
        s.onerror = () => reject(new Error("chart library failed to load"));
        document.head.appendChild(s);
      });
    }
    chartLib.then(fn, () => {});
  }

  function cssVar(el, name, fallback) {
    const v = getComputedStyle(el).getPropertyValue(name).trim();
    return v || fallback;
  }

  function chartConfig(chart, root) {
    const fg = cssVar(root, "--md-default-fg-color--light", "#666");
    const grid = cssVar(root, "--md-default-fg-color--lightest", "#ddd");
    const colors = [1, 2, 3, 4, 5].map((n) => cssVar(root, "--calc-series-" + n, "#448aff"));
    const isBar = chart.kind === "bar";
    const datasets = chart.series.map((s, i) => {
      const color = s.kind === "rule" ? cssVar(root, "--calc-rule", "#e53935") : colors[i % colors.length];
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

  // -- page lifecycle ----------------------------------------------------------------------

  function hydrate() {
    widgets.forEach((w, id) => { if (!w.root.isConnected) { w.charts.forEach((c) => c && c.destroy()); widgets.delete(id); } });
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
  new MutationObserver(() => widgets.forEach((w) => w.redrawCharts()))
    .observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });

  window.calculatorsRuntime = { widgets, MSG, STATE, get ready() { return workerReady; }, bootMs: null, python: null };

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(() => hydrate()); // mkdocs-material: every page, instant navigation included
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", hydrate);
  } else {
    hydrate();
  }
})();
