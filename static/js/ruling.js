// A GM's ruling form shows only the fields the chosen ruling reads. Without this script every
// fieldset stays visible under its legend; the server validates the same either way. A hidden
// fieldset is also disabled, so what it holds is not sent with another ruling.
function showRulingFields(form) {
  const choice = form.querySelector('select[name="ruling"]');
  if (!choice) return;
  for (const part of form.querySelectorAll("[data-rulings]")) {
    const wanted = part.dataset.rulings.split(" ").includes(choice.value);
    part.hidden = !wanted;
    if (part.tagName === "FIELDSET") part.disabled = !wanted;
  }
}

function showAllRulingForms(root) {
  for (const form of root.querySelectorAll("form.ruling-form")) showRulingFields(form);
}

document.addEventListener("change", (event) => {
  if (event.target.matches('form.ruling-form select[name="ruling"]')) {
    showRulingFields(event.target.form);
  }
});
document.addEventListener("htmx:afterSettle", (event) => showAllRulingForms(event.target));
showAllRulingForms(document);
