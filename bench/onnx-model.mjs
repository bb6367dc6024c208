// bench/onnx-model.mjs — writes the one-node ONNX models the peer benchmark
// runs in onnxruntime-web, so the bench needs no Python and no onnx package.
// Only the protobuf fields these models use are written; field numbers are
// those of onnx/onnx.proto (ModelProto, GraphProto, NodeProto, ...).

/** protobuf base-128 varint of an int64 (negatives as 64-bit two's complement) */
function varint(n) {
  const out = [];
  let v = BigInt.asUintN(64, BigInt(n));
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v) byte |= 0x80;
    out.push(byte);
  } while (v);
  return out;
}

const concat = (parts) => {
  const len = parts.reduce((s, p) => s + p.length, 0);
  const out = new Uint8Array(len);
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
};

/** field `no` with wire type 0 (varint) */
const int = (no, n) => Uint8Array.from([...varint(no << 3), ...varint(n)]);
/** field `no` with wire type 2 (length-delimited): bytes, a string or a message */
function bytes(no, payload) {
  const body = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload;
  return concat([Uint8Array.from(varint((no << 3) | 2)), Uint8Array.from(varint(body.length)), body]);
}
/** field `no` with wire type 5 (32-bit float) */
function float32(no, x) {
  const b = new Uint8Array(5);
  b[0] = (no << 3) | 5;
  new DataView(b.buffer).setFloat32(1, x, true);
  return b;
}

const FLOAT = 1; // TensorProto.DataType.FLOAT
const ATTR_FLOAT = 1, ATTR_INT = 2; // AttributeProto.AttributeType

/** TensorProto: dims (1), data_type (2), name (8), raw_data (9, little-endian) */
function tensor(name, dims, data) {
  const raw = new Uint8Array(Float32Array.from(data).buffer);
  return concat([...dims.map((d) => int(1, d)), int(2, FLOAT), bytes(8, name), bytes(9, raw)]);
}

/** ValueInfoProto of a float tensor: name (1), type (2) → tensor_type (1) → elem_type (1), shape (2) → dim (1) → dim_value (1) */
function valueInfo(name, dims) {
  const shape = concat(dims.map((d) => bytes(1, int(1, d))));
  const tensorType = concat([int(1, FLOAT), bytes(2, shape)]);
  return concat([bytes(1, name), bytes(2, bytes(1, tensorType))]);
}

/** NodeProto: input (1), output (2), name (3), op_type (4), attribute (5) */
function node(opType, inputs, outputs, attributes = []) {
  return concat([
    ...inputs.map((i) => bytes(1, i)),
    ...outputs.map((o) => bytes(2, o)),
    bytes(3, `${opType.toLowerCase()}0`),
    bytes(4, opType),
    ...attributes.map((a) => bytes(5, a)),
  ]);
}
/** AttributeProto: name (1), f (2), i (3), type (20) */
const attrFloat = (name, f) => concat([bytes(1, name), float32(2, f), int(20, ATTR_FLOAT)]);
const attrInt = (name, i) => concat([bytes(1, name), int(3, i), int(20, ATTR_INT)]);

/** ModelProto: ir_version (1), producer_name (2), graph (7), opset_import (8) → domain (1), version (2) */
function model(graph, opset) {
  return concat([int(1, 8), bytes(2, 'posnorm-bench'), bytes(7, graph), bytes(8, concat([bytes(1, ''), int(2, opset)]))]);
}

/**
 * ONNX LayerNormalization (opset 17) over the last axis of X [rows × cols],
 * Scale and B as initializers; Y is the only output.
 * @param {number} rows @param {number} cols
 * @param {Float32Array} scale @param {Float32Array} bias @param {number} eps
 * @returns {Uint8Array} the model's bytes
 */
export function layerNormModel(rows, cols, scale, bias, eps) {
  const graph = concat([
    bytes(1, node('LayerNormalization', ['X', 'Scale', 'B'], ['Y'], [attrInt('axis', -1), attrFloat('epsilon', eps)])),
    bytes(2, 'layernorm'),
    bytes(5, tensor('Scale', [cols], scale)),
    bytes(5, tensor('B', [cols], bias)),
    bytes(11, valueInfo('X', [rows, cols])),
    bytes(12, valueInfo('Y', [rows, cols])),
  ]);
  return model(graph, 17);
}
