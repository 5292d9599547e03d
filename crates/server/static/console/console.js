// The keys page's copy button: copies the new key to the clipboard and says so.
"use strict";
document.querySelectorAll("button[data-copy]").forEach((button) => {
  button.addEventListener("click", async () => {
    const text = document.getElementById(button.dataset.copy).textContent;
    const status = document.getElementById("copy-status");
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = "Copied.";
    } catch (error) {
      const range = document.createRange();
      range.selectNodeContents(document.getElementById(button.dataset.copy));
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
      status.textContent = "Selected: press Ctrl+C to copy.";
    }
  });
});
