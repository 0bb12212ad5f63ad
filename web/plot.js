// Helpers for the Go page, each one call for what would otherwise be many
// calls from WebAssembly into JavaScript, which is what makes drawing
// slow. Canvases: Go computes every coordinate (wasm/ui/paint), and these
// replay a whole array. The confusion matrix: its hundred counts at once.
"use strict";
globalThis.softmaxCanvas = {
  // path strokes a polyline through n points xy = [x0, y0, x1, y1, ...].
  path(ctx, xy, n, color, width) {
    if (n < 1) return;
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.lineJoin = "round";
    ctx.lineCap = "round";
    ctx.beginPath();
    ctx.moveTo(xy[0], xy[1]);
    for (let i = 1; i < n; i++) ctx.lineTo(xy[2 * i], xy[2 * i + 1]);
    ctx.stroke();
  },
  // segments strokes n/2 separate segments (x0, y0)-(x1, y1), ...
  segments(ctx, xy, n, color, width) {
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.lineCap = "butt";
    ctx.beginPath();
    for (let i = 0; i + 1 < n; i += 2) {
      ctx.moveTo(xy[2 * i], xy[2 * i + 1]);
      ctx.lineTo(xy[2 * i + 2], xy[2 * i + 3]);
    }
    ctx.stroke();
  },
  // dots fills a disc of radius r at each of n points.
  dots(ctx, xy, n, color, r) {
    ctx.fillStyle = color;
    for (let i = 0; i < n; i++) {
      ctx.beginPath();
      ctx.arc(xy[2 * i], xy[2 * i + 1], r, 0, 2 * Math.PI);
      ctx.fill();
    }
  },
  // marks fills a disc of radius r at each of n points and rings it with
  // a line of the given width and colour: the plane's data points.
  marks(ctx, xy, n, fill, stroke, r, width) {
    ctx.fillStyle = fill;
    ctx.strokeStyle = stroke;
    ctx.lineWidth = width;
    for (let i = 0; i < n; i++) {
      ctx.beginPath();
      ctx.arc(xy[2 * i], xy[2 * i + 1], r, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    }
  },
  // scaled draws w×h RGBA pixels stretched over the W×H canvas, smoothly
  // (the plane's regions and the loss surface's shading, computed at a
  // lower resolution than the canvas's).
  scaled(ctx, rgba, w, h, W, H) {
    const key = w + "x" + h;
    const cache = (this._scaled = this._scaled || {});
    let c = cache[key];
    if (!c) {
      c = cache[key] = document.createElement("canvas");
      c.width = w;
      c.height = h;
      c._img = new ImageData(w, h);
    }
    c._img.data.set(rgba.subarray(0, 4 * w * h));
    c.getContext("2d").putImageData(c._img, 0, 0);
    ctx.imageSmoothingEnabled = true;
    ctx.drawImage(c, 0, 0, W, H);
  },
  // image puts w×h RGBA pixels at (x, y), reusing one ImageData per size.
  image(ctx, rgba, w, h, x, y) {
    const key = w + "x" + h;
    const cache = (this._images = this._images || {});
    let img = cache[key];
    if (!img) img = cache[key] = new ImageData(w, h);
    img.data.set(rgba.subarray(0, 4 * w * h));
    ctx.putImageData(img, x, y);
  },
};

// inkOn is the text colour for a cell shaded rgb at alpha a over the
// panel's white: black where the shade is light, white where it is dark,
// whichever has the higher contrast (WCAG 2 relative luminance). Black and
// white cross at a luminance where both give 4.58:1, so every count reads
// at 4.5:1 or better, whatever its shade.
function inkOn(rgb, a) {
  const lin = (c) => {
    const v = (a * c + (1 - a) * 255) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const L = 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2]);
  return (L + 0.05) / 0.05 >= 1.05 / (L + 0.05) ? "#000" : "#fff";
}

// The confusion matrix's counts (wasm/ui/confusion.go): one call writes
// all of them, where going through go-app cost a call per attribute.
globalThis.softmaxConfusion = {
  // fill writes the k×k counts (little-endian uint16s in the Uint8Array
  // bytes, row by row) into the table's cells: the count as text and
  // data-count, a shade by the count's share of its row (green on the
  // diagonal, red elsewhere), and, for a count above 0, the class pick
  // with tabindex 0 and role button, so that the cell can be clicked and
  // focused. It reports whether the table has its k×k cells.
  //
  // It runs at every evaluation of a run, in the task that renders it, so
  // it writes only what changed since its last call: each cell keeps what
  // it was given (_count, _total) and what it shows (_bg, _ink, _pick), a
  // cell go-app made anew keeps nothing, and most shades and every pick
  // stay as they were from one epoch to the next.
  fill(table, bytes, k) {
    const cells = table.querySelectorAll("td.cell");
    if (cells.length !== k * k) return false;
    const counts = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let y = 0; y < k; y++) {
      let total = 0;
      for (let p = 0; p < k; p++) total += counts.getUint16(2 * (y * k + p), true);
      for (let p = 0; p < k; p++) {
        const n = counts.getUint16(2 * (y * k + p), true), td = cells[y * k + p];
        if (td._count === n && td._total === total) continue;
        let bg = "transparent";
        if (n > 0) {
          const share = n / total;
          bg = y === p ? `rgba(27, 120, 55, ${(0.15 + 0.75 * share).toFixed(2)})` : `rgba(178, 24, 43, ${(0.1 + 0.9 * Math.min(1, 4 * share)).toFixed(2)})`;
        }
        if (td._count !== n) {
          const s = String(n);
          td.dataset.count = s;
          td.textContent = n > 0 ? s : "";
        }
        if (td._bg !== bg) {
          const ink = n > 0 ? inkOn(y === p ? [27, 120, 55] : [178, 24, 43], +bg.slice(bg.lastIndexOf(" ") + 1, -1)) : "";
          td.style.background = bg;
          if (td._ink !== ink) td.style.color = ink;
          td._bg = bg;
          td._ink = ink;
        }
        const pick = n > 0;
        if (td._pick !== pick) {
          td.classList.toggle("pick", pick);
          if (pick) {
            td.tabIndex = 0;
            td.setAttribute("role", "button");
          } else {
            td.removeAttribute("tabindex");
            td.removeAttribute("role");
          }
          td._pick = pick;
        }
        td._count = n;
        td._total = total;
      }
    }
    return true;
  },
};
