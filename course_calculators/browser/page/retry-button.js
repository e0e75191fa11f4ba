// "Try again" beside a widget's message when Python could not start (a download failed or
// stalled): the numbers shown stay, and one press starts a new worker for every widget.

const ATTR = "data-calc-retry";

/** Put a retry button after `root`'s message (once); `onRetry()` on press. */
export function showRetry(root, message, onRetry) {
  if (!message || root.querySelector(`[${ATTR}]`)) return;
  const button = document.createElement("button");
  button.type = "button";
  button.setAttribute(ATTR, "");
  button.className = "md-button";
  button.textContent = "Try again";
  button.addEventListener("click", onRetry);
  message.after(button);
}

export function hideRetry(root) {
  root.querySelectorAll(`[${ATTR}]`).forEach((b) => b.remove());
}
