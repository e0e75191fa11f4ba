// Copy buttons (a widget's link, its embed snippet): copy a text and say, on the button, for a
// moment, whether it worked.

const FEEDBACK_MS = 1500;
const labels = new WeakMap(); // button → its own label, kept while it shows the feedback

export function copyText(button, text, doneLabel) {
  if (!labels.has(button)) labels.set(button, button.textContent);
  const label = labels.get(button);
  const done = (ok) => {
    button.textContent = ok ? doneLabel : "Copy failed";
    setTimeout(() => { button.textContent = label; }, FEEDBACK_MS);
  };
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(() => done(true), () => done(false));
  else done(false);
}
