// Canvas helpers for the Go page. Go computes every coordinate (see
// wasm/ui/plot.go); these replay a whole array in one call, because a call
// from WebAssembly into JavaScript per point is what makes drawing slow.
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
