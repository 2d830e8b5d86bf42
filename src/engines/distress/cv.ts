// OpenCV's WebAssembly build, loaded once per process. The module object is an Emscripten Module
// that has its own `then`, so it is never returned from an async function directly (a promise
// would adopt it and loop): callers get it wrapped. The types below are the part of the API this
// detector uses, written out so the engine type-checks without `any`.
import { createRequire } from 'node:module';

export interface Mat {
  rows: number;
  cols: number;
  data: Uint8Array;
  data32S: Int32Array;
  data32F: Float32Array;
  data64F: Float64Array;
  delete(): void;
  clone(): Mat;
  type(): number;
  setTo(value: Scalar, mask?: Mat): Mat;
  copyTo(dst: Mat, mask?: Mat): void;
  convertTo(dst: Mat, rtype: number, alpha?: number, beta?: number): void;
}
export interface MatVector {
  size(): number;
  get(i: number): Mat;
  push_back(m: Mat): void;
  delete(): void;
}
export type Scalar = number[];
export interface Size {
  width: number;
  height: number;
}
export interface Point {
  x: number;
  y: number;
}
export interface Moments {
  m00: number;
  m10: number;
  m01: number;
  mu20: number;
  mu02: number;
  mu11: number;
}
export interface RotatedRect {
  center: Point;
  size: Size;
  angle: number;
}

export interface Cv {
  Mat: { new (): Mat; new (rows: number, cols: number, type: number, scalar?: Scalar): Mat };
  MatVector: { new (): MatVector };
  Size: { new (w: number, h: number): Size };
  Point: { new (x: number, y: number): Point };
  Scalar: { new (...v: number[]): Scalar };
  matFromArray(rows: number, cols: number, type: number, array: ArrayLike<number>): Mat;
  CV_8UC1: number;
  CV_8UC3: number;
  CV_8UC4: number;
  CV_32F: number;
  CV_32S: number;
  CV_32SC2: number;
  COLOR_RGBA2RGB: number;
  COLOR_RGB2GRAY: number;
  MORPH_ELLIPSE: number;
  MORPH_RECT: number;
  MORPH_BLACKHAT: number;
  MORPH_OPEN: number;
  MORPH_CLOSE: number;
  MORPH_GRADIENT: number;
  THRESH_BINARY: number;
  RETR_CCOMP: number;
  RETR_EXTERNAL: number;
  CHAIN_APPROX_SIMPLE: number;
  CHAIN_APPROX_NONE: number;
  DIST_L2: number;
  INTER_AREA: number;
  BORDER_REPLICATE: number;
  cvtColor(src: Mat, dst: Mat, code: number): void;
  resize(src: Mat, dst: Mat, dsize: Size, fx: number, fy: number, interpolation: number): void;
  getStructuringElement(shape: number, size: Size): Mat;
  morphologyEx(
    src: Mat,
    dst: Mat,
    op: number,
    kernel: Mat,
    anchor?: Point,
    iterations?: number,
    borderType?: number,
  ): void;
  erode(src: Mat, dst: Mat, kernel: Mat): void;
  dilate(src: Mat, dst: Mat, kernel: Mat): void;
  threshold(src: Mat, dst: Mat, thresh: number, maxval: number, type: number): number;
  connectedComponentsWithStats(
    src: Mat,
    labels: Mat,
    stats: Mat,
    centroids: Mat,
    connectivity: number,
    ltype: number,
  ): number;
  findContours(src: Mat, contours: MatVector, hierarchy: Mat, mode: number, method: number): void;
  contourArea(contour: Mat): number;
  arcLength(curve: Mat, closed: boolean): number;
  approxPolyDP(curve: Mat, out: Mat, epsilon: number, closed: boolean): void;
  convexHull(points: Mat, hull: Mat, clockwise: boolean, returnPoints: boolean): void;
  minAreaRect(points: Mat): RotatedRect;
  moments(src: Mat, binaryImage: boolean): Moments;
  distanceTransform(src: Mat, dst: Mat, distanceType: number, maskSize: number): void;
  GaussianBlur(src: Mat, dst: Mat, ksize: Size, sigmaX: number): void;
  blur(src: Mat, dst: Mat, ksize: Size): void;
  medianBlur(src: Mat, dst: Mat, ksize: number): void;
  bitwise_and(a: Mat, b: Mat, dst: Mat): void;
  bitwise_or(a: Mat, b: Mat, dst: Mat): void;
  bitwise_not(a: Mat, dst: Mat): void;
  subtract(a: Mat, b: Mat, dst: Mat): void;
  multiply(a: Mat, b: Mat, dst: Mat): void;
  sqrt(a: Mat, dst: Mat): void;
  countNonZero(a: Mat): number;
  fillPoly(img: Mat, pts: MatVector, color: Scalar): void;
  drawContours(
    img: Mat,
    contours: MatVector,
    idx: number,
    color: Scalar,
    thickness: number,
    lineType?: number,
    hierarchy?: Mat,
    maxLevel?: number,
    offset?: Point,
  ): void;
  boundingRect(points: Mat): { x: number; y: number; width: number; height: number };
  LINE_8: number;
  Laplacian(src: Mat, dst: Mat, ddepth: number): void;
  meanStdDev(src: Mat, mean: Mat, stddev: Mat, mask?: Mat): void;
}

interface Loadable {
  Mat?: unknown;
  onRuntimeInitialized?: () => void;
}

let loading: Promise<{ cv: Cv }> | undefined;

/** The OpenCV module, initialised once per process; later calls share the same promise. */
export function loadCv(): Promise<{ cv: Cv }> {
  loading ??= (async () => {
    // The Emscripten build adds process-wide 'uncaughtException' (rethrow, printing its whole
    // source) and 'unhandledRejection' (abort) handlers when it loads; a server must keep its own.
    const events = ['uncaughtException', 'unhandledRejection'] as const;
    const before = events.map((e) => new Set(process.listeners(e)));
    // require, not import: an ESM wrapper around the CommonJS module (vitest makes one) copies its
    // properties at import time and never sees the runtime finish initialising.
    const imported = createRequire(import.meta.url)('@techstark/opencv-js') as { default?: Loadable } & Loadable;
    events.forEach((e, k) => {
      for (const l of process.listeners(e)) if (!before[k].has(l)) process.removeListener(e, l);
    });
    const mod: Loadable = imported.default ?? imported;
    if (!mod.Mat) {
      await new Promise<void>((resolve) => {
        mod.onRuntimeInitialized = () => resolve();
      });
    }
    return { cv: mod as unknown as Cv };
  })();
  return loading;
}

/**
 * Mats live on the WebAssembly heap and are freed by hand: every Mat made during one detection is
 * registered here and freed together at the end, so an exception half-way leaks nothing.
 */
export class MatScope {
  private readonly mats: { delete(): void }[] = [];
  constructor(readonly cv: Cv) {}
  track<T extends { delete(): void }>(m: T): T {
    this.mats.push(m);
    return m;
  }
  mat(): Mat {
    return this.track(new this.cv.Mat());
  }
  zeros(rows: number, cols: number, type: number): Mat {
    return this.track(new this.cv.Mat(rows, cols, type, new this.cv.Scalar(0, 0, 0, 0)));
  }
  kernel(shape: number, w: number, h = w): Mat {
    return this.track(this.cv.getStructuringElement(shape, new this.cv.Size(w, h)));
  }
  release(): void {
    for (const m of this.mats.splice(0)) m.delete();
  }
}
