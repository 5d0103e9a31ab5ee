/**
 * A worker that creates a WebGL2 context and links one small program, then says `done`. The
 * browser's GPU process sets up its renderer and shader compiler on the first context and the
 * first link; on a software renderer (SwiftShader) those take 250–400 ms of blocking calls.
 * Done here first, the page's own map finds them ready, and no page task waits on them.
 */
const post = (message: string) => (self as unknown as Worker).postMessage(message);

function warmUp(): void {
  const gl = new OffscreenCanvas(1, 1).getContext('webgl2');
  if (!gl) return;
  const shader = (type: number, source: string) => {
    const s = gl.createShader(type)!;
    gl.shaderSource(s, source);
    gl.compileShader(s);
    return s;
  };
  const program = gl.createProgram();
  gl.attachShader(program, shader(gl.VERTEX_SHADER, '#version 300 es\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }'));
  gl.attachShader(program, shader(gl.FRAGMENT_SHADER, '#version 300 es\nprecision mediump float; out vec4 c; void main() { c = vec4(1.0); }'));
  gl.linkProgram(program);
  gl.getProgramParameter(program, gl.LINK_STATUS); // waits for the link
}

try {
  warmUp();
} finally {
  post('done');
}
