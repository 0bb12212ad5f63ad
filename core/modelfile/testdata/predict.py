# Reads a model saved by EncodeNPZ and test images, and prints NumPy's
# prediction for each image, argmax(x @ W + b) with x = pixels / 255, as
# one line of digits. It also checks that W.npy and b.npy are, byte for
# byte, what np.save writes for the same arrays.
#
#   python3 predict.py model.npz images.npy
import io
import sys
import zipfile

import numpy as np

model, images = sys.argv[1], sys.argv[2]
f = np.load(model)
W, b = f["W"], f["b"]
assert W.dtype == np.float32 and W.shape == (784, 10) and W.flags.c_contiguous, (W.dtype, W.shape)
assert b.dtype == np.float32 and b.shape == (10,), (b.dtype, b.shape)
with zipfile.ZipFile(model) as z:
    for name, a in (("W.npy", W), ("b.npy", b)):
        buf = io.BytesIO()
        np.save(buf, a)
        assert z.read(name) == buf.getvalue(), name + " differs from np.save's"
x = np.load(images) / 255
print("".join(str(d) for d in np.argmax(x @ W + b, axis=1)))
