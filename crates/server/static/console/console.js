// The keys page's copy buttons: each copies the text of its data-copy element (the new key,
// a snippet) to the clipboard and says so in its data-status element.
"use strict";
document.querySelectorAll("button[data-copy]").forEach((button) => {
  button.addEventListener("click", async () => {
    const source = document.getElementById(button.dataset.copy);
    const status = document.getElementById(button.dataset.status);
    try {
      await navigator.clipboard.writeText(source.textContent);
      status.textContent = "Copied.";
    } catch (error) {
      const range = document.createRange();
      range.selectNodeContents(source);
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
      status.textContent = "Selected: press Ctrl+C to copy.";
    }
  });
});
