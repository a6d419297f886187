// jkurwa defines two of the ten DSTU 4145-2002 polynomial-basis curves (257 and 431 bits) and throws
// "Curve with such name was not defined" for a key or certificate on any other, though its OID table
// names them all. Qualified CAs also issue keys on the 307-bit curve (and others), so the rest are added
// to jkurwa's table of named curves. The parameters are Bouncy Castle 1.72's (DSTU4145NamedCurves, printed
// by test/vectors/bankid/BankIdEnvelope.java's sibling dump), hexadecimal, big-endian; 257 and 431 are
// checked against jkurwa's own, and the 307-bit one by a Bouncy Castle vector (test/vectors/bankid). Left out:
// the 191-bit curve, on which jkurwa's arithmetic never finishes building the curve (m = 191 fills six 32-bit
// words to the last bit), and normal-basis curves, for which jkurwa has no arithmetic.
import standard from "jkurwa/lib/standard.js";

interface CurveDefinition {
  m: number;
  ks: number[];
  a: string;
  b: string;
  base: { x: string; y: string };
  order: string;
  kofactor: number[];
}

const bouncyCastle: Record<string, CurveDefinition> = {
  DSTU_PB_163: {
    m: 163,
    ks: [3, 6, 7],
    a: "1",
    b: "5ff6108462a2dc8210ab403925e638a19c1455d21",
    base: { x: "2e2f85f5dd74ce983a5c4237229daf8a3f35823be", y: "3826f008a8c51d7b95284d9d03ff0e00ce2cd723a" },
    order: "400000000000000000002bec12be2262d39bcf14d",
    kofactor: [2],
  },
  DSTU_PB_167: {
    m: 167,
    ks: [6],
    a: "1",
    b: "6ee3ceeb230811759f20518a0930f1a4315a827dac",
    base: { x: "7a1f6653786a68192803910a3d30b2a2018b21cd54", y: "5f49eb26781c0ec6b8909156d98ed435e45fd59918" },
    order: "3fffffffffffffffffffffb12ebcc7d7f29ff7701f",
    kofactor: [2],
  },
  DSTU_PB_173: {
    m: 173,
    ks: [1, 2, 10],
    a: "0",
    b: "108576c80499db2fc16eddf6853bbb278f6b6fb437d9",
    base: { x: "4d41a619bcc6eadf0448fa22fad567a9181d37389ca", y: "10b51cc12849b234c75e6dd2028bf7ff5c1ce0d991a1" },
    order: "800000000000000000000189b4e67606e3825bb2831",
    kofactor: [4],
  },
  DSTU_PB_179: {
    m: 179,
    ks: [1, 2, 4],
    a: "1",
    b: "4a6e0856526436f2f88dd07a341e32d04184572beb710",
    base: { x: "6ba06fe51464b2bd26dc57f48819ba9954667022c7d03", y: "25fbc363582dcec065080ca8287aaff09788a66dc3a9e" },
    order: "3ffffffffffffffffffffffb981960435fe5ab64236ef",
    kofactor: [2],
  },
  DSTU_PB_233: {
    m: 233,
    ks: [1, 4, 9],
    a: "1",
    b: "6973b15095675534c7cf7e64a21bd54ef5dd3b8a0326aa936ece454d2c",
    base: {
      x: "3fcda526b6cdf83ba1118df35b3c31761d3545f32728d003eeb25efe96",
      y: "9ca8b57a934c54deeda9e54a7bbad95e3b2e91c54d32be0b9df96d8d35",
    },
    order: "1000000000000000000000000000013e974e72f8a6922031d2603cfe0d7",
    kofactor: [2],
  },
  DSTU_PB_307: {
    m: 307,
    ks: [2, 4, 8],
    a: "1",
    b: "393c7f7d53666b5054b5e6c6d3de94f4296c0c599e2e2e241050df18b6090bdc90186904968bb",
    base: {
      x: "216ee8b189d291a0224984c1e92f1d16bf75ccd825a087a239b276d3167743c52c02d6e7232aa",
      y: "5d9306bacd22b7faeb09d2e049c6e2866c5d1677762a8f2f2dc9a11c7f7be8340ab2237c7f2a0",
    },
    order: "3ffffffffffffffffffffffffffffffffffffffc079c2f3825da70d390fbba588d4604022b7b7",
    kofactor: [2],
  },
  DSTU_PB_367: {
    m: 367,
    ks: [21],
    a: "1",
    b: "43fc8ad242b0b7a6f3d1627ad5654447556b47bf6aa4a64b0c2afe42cadab8f93d92394c79a79755437b56995136",
    base: {
      x: "324a6eddd512f08c49a99ae0d3f961197a76413e7be81a400ca681e09639b5fe12e59a109f78bf4a373541b3b9a1",
      y: "1ab597a5b4477f59e39539007c7f977d1a567b92b043a49c6b61984c3fe3481aaf454cd41ba1f051626442b3c10",
    },
    order: "40000000000000000000000000000000000000000000009c300b75a3fa824f22428fd28ce8812245ef44049b2d49",
    kofactor: [2],
  },
};

const table = standard as unknown as Record<string, unknown>;
for (const [name, definition] of Object.entries(bouncyCastle)) table[name] ??= definition;

/** The DSTU 4145 curve names jkurwa can now use, by field size. */
export const supportedCurveSizes = [163, 167, 173, 179, 233, 257, 307, 367, 431] as const;
