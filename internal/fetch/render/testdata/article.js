// Shared by the test applications: builds an article from JSON data.
function renderArticle(root, data) {
  root.innerHTML = "";
  const art = document.createElement("article");
  const h = document.createElement("h1");
  h.textContent = data.title;
  art.appendChild(h);
  for (const p of data.paragraphs) {
    const el = document.createElement("p");
    el.textContent = p;
    art.appendChild(el);
  }
  root.appendChild(art);
  document.title = data.title;
}
