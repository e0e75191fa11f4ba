// Under `mkdocs serve` only: MkDocs' live-reload poll, with a say for the page. plugin/live.py
// inlines this at the top of every served page's <head> and calls it with the window and the
// event's name (contract.LIVE_EVENT).
//
// MkDocs 1.6 injects, before </body>, `var livereload = function(epoch, requestId) {…};
// livereload(<epoch>, <id>);`: a long poll of /livereload/<epoch>/<id> that calls
// location.reload() as soon as the server answers a newer epoch (a rebuild finished). Defined
// here first as a property of the window whose setter keeps MkDocs' function aside, the name
// gives MkDocs' call this poll instead: the same requests, the same waits, the same visibility
// rule, but after a rebuild it fires the event on `document` first and reloads only if no
// listener cancelled it (runtime.js cancels it, and decides: page/live-reload.js). Should MkDocs
// call it with other arguments, its own function runs instead: the page then reloads as before.
(function (win, eventName) {
  var doc = win.document;
  var mkdocs = null;

  function poll(epoch, requestId) {
    var req, timeout;
    var next = function () {
      req = new win.XMLHttpRequest();
      req.onloadend = function () {
        var latest = parseFloat(this.responseText);
        if (latest > epoch) {
          epoch = latest; // the next rebuild is the one after this one
          var event = new win.CustomEvent(eventName, { cancelable: true, detail: { epoch: latest } });
          if (doc.dispatchEvent(event)) {
            win.location.reload();
            return;
          }
          timeout = win.setTimeout(next, 0);
        } else {
          timeout = win.setTimeout(next, this.status === 200 ? 0 : 3000);
        }
      };
      req.open("GET", "/livereload/" + epoch + "/" + requestId);
      req.send();
    };
    var stop = function () {
      if (req) req.abort();
      if (timeout) win.clearTimeout(timeout);
      req = timeout = undefined;
    };
    win.addEventListener("load", function () { if (doc.visibilityState === "visible") next(); });
    win.addEventListener("visibilitychange", function () {
      if (doc.visibilityState === "visible") next(); else stop();
    });
    win.addEventListener("beforeunload", stop);
  }

  function start(epoch, requestId) {
    if (typeof epoch === "number" && typeof requestId === "number") return poll(epoch, requestId);
    if (mkdocs) return mkdocs.apply(win, arguments);
  }

  Object.defineProperty(win, "livereload", {
    configurable: true,
    get: function () { return start; },
    set: function (fn) { mkdocs = fn; },
  });
})
