// A button with data-copy="#id" copies that field's text; the status line says it did.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-copy]");
  if (!button) return;
  const field = document.querySelector(button.dataset.copy);
  if (!field) return;
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    document.execCommand("copy");
  }
  const status = document.querySelector("[data-copied]");
  if (status) status.hidden = false;
});
