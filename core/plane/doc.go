// Package plane is softmax regression on points in two dimensions, the
// pictures a linear classifier is understood by: the plane cut into
// regions by straight boundaries, and the loss surface J(θ) with the paths
// that gradient descent, SGD and Newton's method take across it.
//
// Nothing here trains by itself. The model is core/softmax's, with d = 2
// features x = (x₁, x₂) and K = 2…5 classes (softmax.NewClasses); it
// learns through core/train's Trainer, the digits' own (Lab, and the paths
// of full-batch gradient descent, B = m, and of SGD), and core/newton's
// Solver (the minimum, and Newton's path). The curvature λ_max of J's
// Hessian comes from core/newton's power iteration on H·v.
//
// What is drawn is computed here, in pure Go, so that it is tested natively:
//
//   - Data: the data sets blobs, overlap, separable and ring, made from a
//     seed; points added and removed; every refusal a *InputError that
//     names what was wrong (a point outside the view, a class with no
//     points after K changed), and Notes for what is allowed but worth
//     saying (a class with no points, duplicates, one point only);
//   - Regions and Boundaries: the predicted class and its probability on
//     a grid of the view, and the exact boundary segments where two
//     classes tie and no other class is above them;
//   - Scene: the loss surface and the three paths. For K = 2 with class 0
//     pinned at zero and no bias (Settings.Exact), θ is two numbers and
//     the surface is J itself; otherwise it is a slice of J through the
//     optimum θ* along the two directions in which J curves most (the two
//     largest eigenvectors of H at θ*), and the paths are projected onto
//     it. A Builder computes a Scene in small units of work, so that a
//     page can spread it over frames.
//   - Judge: J of a θ set by hand (a line a class sends) as the Lab would
//     show it, by the code of the Lab's own J, and gradient descent from
//     it by the Scene's gradient-descent path.
//
// The view is the square [−Extent, Extent]² of x; the surface's window is
// chosen to hold the start, the minimum and the paths (Window).
package plane
