// The files of a zip archive (a wheel), read in JavaScript: the browser's
// own zlib (DecompressionStream) inflates them, off the engine's thread of
// WebAssembly, so that the worker can unpack the wheels while Pyodide
// starts and only copy the files in once it has.  Stored and deflated
// entries are read (what a wheel holds); each file's CRC-32 is checked.

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;

let crcTable = null;

function crc32(data) {
  if (crcTable === null) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) crc = crcTable[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

async function inflated(data) {
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * The files of the zip archive `bytes` (a Uint8Array): [name, Uint8Array]
 * pairs in the archive's order, folders left out.  Rejects an archive it
 * cannot read (damaged, zip64, encrypted, another compression, a name that
 * leaves the archive's folder, a CRC-32 that does not match).
 */
export async function unzip(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== END) end--;
  if (end < 0) throw new Error("not a zip archive (no end of central directory)");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const names = new TextDecoder();
  const files = [];
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== CENTRAL) throw new Error("damaged zip archive (central directory)");
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const packed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const offset = view.getUint32(at + 42, true);
    const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith("/")) continue;
    if (flags & 1) throw new Error(`${name}: encrypted`);
    if (name.startsWith("/") || name.split("/").includes("..")) throw new Error(`${name}: outside the archive's folder`);
    if (view.getUint32(offset, true) !== LOCAL) throw new Error(`${name}: damaged zip archive (local header)`);
    const start = offset + 30 + view.getUint16(offset + 26, true) + view.getUint16(offset + 28, true);
    const data = bytes.subarray(start, start + packed);
    if (method !== 0 && method !== 8) throw new Error(`${name}: compression ${method} is not read`);
    files.push({ name, crc, size, data: method === 0 ? Promise.resolve(data) : inflated(data) });
  }
  return Promise.all(files.map(async ({ name, crc, size, data }) => {
    const content = await data;
    if (content.length !== size || crc32(content) !== crc) throw new Error(`${name}: damaged (size or CRC-32)`);
    return [name, content];
  }));
}
