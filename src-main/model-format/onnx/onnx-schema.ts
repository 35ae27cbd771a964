/**
 * The subset of the ONNX protobuf schema (onnx.proto, IR version 8) that the graph builder writes,
 * as a protobufjs reflection description: model, graph, node, attribute, tensor, value info.
 * Field numbers follow the published onnx.proto; fields we never write are left out.
 */
import protobuf from 'protobufjs';

const repeated = 'repeated' as const;

const schema = {
  nested: {
    onnx: {
      nested: {
        ModelProto: {
          fields: {
            irVersion: { type: 'int64', id: 1 },
            producerName: { type: 'string', id: 2 },
            producerVersion: { type: 'string', id: 3 },
            domain: { type: 'string', id: 4 },
            modelVersion: { type: 'int64', id: 5 },
            docString: { type: 'string', id: 6 },
            graph: { type: 'GraphProto', id: 7 },
            opsetImport: { rule: repeated, type: 'OperatorSetIdProto', id: 8 },
            metadataProps: { rule: repeated, type: 'StringStringEntryProto', id: 14 },
          },
        },
        OperatorSetIdProto: {
          fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } },
        },
        StringStringEntryProto: {
          fields: { key: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } },
        },
        GraphProto: {
          fields: {
            node: { rule: repeated, type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: repeated, type: 'TensorProto', id: 5 },
            docString: { type: 'string', id: 10 },
            input: { rule: repeated, type: 'ValueInfoProto', id: 11 },
            output: { rule: repeated, type: 'ValueInfoProto', id: 12 },
            valueInfo: { rule: repeated, type: 'ValueInfoProto', id: 13 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: repeated, type: 'string', id: 1 },
            output: { rule: repeated, type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            opType: { type: 'string', id: 4 },
            attribute: { rule: repeated, type: 'AttributeProto', id: 5 },
            docString: { type: 'string', id: 6 },
            domain: { type: 'string', id: 7 },
          },
        },
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            f: { type: 'float', id: 2 },
            i: { type: 'int64', id: 3 },
            s: { type: 'bytes', id: 4 },
            t: { type: 'TensorProto', id: 5 },
            g: { type: 'GraphProto', id: 6 },
            floats: { rule: repeated, type: 'float', id: 7 },
            ints: { rule: repeated, type: 'int64', id: 8 },
            strings: { rule: repeated, type: 'bytes', id: 9 },
            type: { type: 'int32', id: 20 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: repeated, type: 'int64', id: 1 },
            dataType: { type: 'int32', id: 2 },
            floatData: { rule: repeated, type: 'float', id: 4 },
            int64Data: { rule: repeated, type: 'int64', id: 7 },
            name: { type: 'string', id: 8 },
            rawData: { type: 'bytes', id: 9 },
            externalData: { rule: repeated, type: 'StringStringEntryProto', id: 13 },
            dataLocation: { type: 'int32', id: 14 },
          },
        },
        ValueInfoProto: {
          fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 }, docString: { type: 'string', id: 3 } },
        },
        TypeProto: {
          fields: { tensorType: { type: 'TypeProtoTensor', id: 1 } },
        },
        TypeProtoTensor: {
          fields: { elemType: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } },
        },
        TensorShapeProto: {
          fields: { dim: { rule: repeated, type: 'TensorShapeDimension', id: 1 } },
        },
        TensorShapeDimension: {
          oneofs: { value: { oneof: ['dimValue', 'dimParam'] } },
          fields: { dimValue: { type: 'int64', id: 1 }, dimParam: { type: 'string', id: 2 } },
        },
      },
    },
  },
};

const root = protobuf.Root.fromJSON(schema);

export const ModelProtoType = root.lookupType('onnx.ModelProto');

/** TensorProto.DataType values (onnx.proto). */
export const ONNX_DATA_TYPE = { float32: 1, uint8: 2, int8: 3, int32: 6, int64: 7, bool: 9, float16: 10, bfloat16: 16 } as const;

/** AttributeProto.AttributeType values (onnx.proto). */
export const ONNX_ATTRIBUTE_TYPE = { float: 1, int: 2, string: 3, tensor: 4, graph: 5, floats: 6, ints: 7, strings: 8 } as const;

export const ONNX_IR_VERSION = 8;
