// What does not fit a screen of arguments[0] px, in words (tests/browser/conftest.py, Page.layout_problems):
// sideways scroll, an element whose right edge is past the screen, a button squeezed taller than three and a
// half lines, a picture's text cut by the picture's edge or drawn under 9 px.
const width = arguments[0], problems = [];
const root = document.documentElement;
if (root.scrollWidth > width) problems.push(`the page is ${root.scrollWidth} px wide on a ${width} px screen`);
const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
  (typeof e.className === 'string' && e.className ? '.' + e.className.trim().replace(/ +/g, '.'): '');
const hidden = e => getComputedStyle(e).visibility === 'hidden';
for (const e of document.body.querySelectorAll('*')) {
  const r = e.getBoundingClientRect();
  if (r.width === 0 || hidden(e) || e.closest('svg') && e.tagName !== 'svg') continue;
  if (r.right > width + 1) problems.push(`${name(e)} ends at ${Math.round(r.right)} px: "${(e.innerText || '').slice(0, 40)}"`);
}
for (const b of document.querySelectorAll('button, input[type=submit]')) {
  const r = b.getBoundingClientRect(), line = parseFloat(getComputedStyle(b).lineHeight) || 20;
  if (r.width > 0 && r.height > 3.5 * line) problems.push(`button "${b.innerText.slice(0, 40)}" is ${Math.round(r.width)} x ${Math.round(r.height)} px`);
}
for (const t of document.querySelectorAll('svg text')) {
  const box = t.closest('svg').getBoundingClientRect(), r = t.getBoundingClientRect();
  if (r.width && (r.left < box.left - 1 || r.right > box.right + 1)) problems.push(`picture text "${t.textContent}" cut by its edge`);
  // A picture drawn smaller than its units (a chart on a phone) shrinks its text too: 9 px is the least read.
  const svg = t.closest('svg'), scale = svg.viewBox.baseVal && svg.viewBox.baseVal.width
    ? box.width / svg.viewBox.baseVal.width : 1;
  const drawn = parseFloat(getComputedStyle(t).fontSize) * scale;
  if (r.width && drawn < 9) problems.push(`picture text "${t.textContent}" drawn ${drawn.toFixed(1)} px high`);
}
return [...new Set(problems)];
