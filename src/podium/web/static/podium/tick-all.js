// "Tick all": ticks every checkbox that belongs to the named form (its `form` attribute), so a
// bulk action over a long list needs one tap. Without JavaScript the button stays hidden and
// each box is ticked by hand.
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-tick-all]")) {
    const boxes = () =>
      document.querySelectorAll(`input[type=checkbox][form="${button.dataset.tickAll}"]`);
    button.hidden = false;
    button.addEventListener("click", () => {
      const all = [...boxes()];
      const tick = all.some((box) => !box.checked);
      for (const box of all) box.checked = tick;
    });
  }
});
