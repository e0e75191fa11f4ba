// Typesets the chapter's math with the vendored KaTeX, on every page (instant navigation too).
(function () {
  "use strict";
  function typeset() {
    if (typeof renderMathInElement !== "function") return;
    document.querySelectorAll(".arithmatex").forEach((el) => {
      renderMathInElement(el, {
        delimiters: [
          { left: "\\(", right: "\\)", display: false },
          { left: "\\[", right: "\\]", display: true },
        ],
        throwOnError: false,
      });
    });
  }
  if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(typeset);
  else document.addEventListener("DOMContentLoaded", typeset);
})();
