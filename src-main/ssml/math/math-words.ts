/**
 * Spoken words for MathML tokens in English and Chinese: operators (<mo>), Greek letters and
 * function names (<mi>). Parentheses and brackets are silent, as Azure reads them by default.
 * Data only.
 */

/** operator → [English, Chinese]; '' is silent. */
export const OPERATORS: Readonly<Record<string, readonly [string, string]>> = {
  '+': ['plus', '加'], '-': ['minus', '减'], '−': ['minus', '减'], '=': ['equals', '等于'], '×': ['times', '乘'], '·': ['times', '乘'], '⋅': ['times', '乘'], '*': ['times', '乘'], '∗': ['times', '乘'],
  '÷': ['divided by', '除以'], '/': ['divided by', '除以'], '±': ['plus or minus', '正负'], '∓': ['minus or plus', '负正'],
  '<': ['is less than', '小于'], '>': ['is greater than', '大于'], '≤': ['is less than or equal to', '小于等于'], '≥': ['is greater than or equal to', '大于等于'],
  '≠': ['is not equal to', '不等于'], '≈': ['is approximately equal to', '约等于'], '≡': ['is equivalent to', '恒等于'], '∝': ['is proportional to', '正比于'],
  '→': ['approaches', '趋向于'], '⇒': ['implies', '推出'], '⇔': ['if and only if', '当且仅当'], '∈': ['is an element of', '属于'], '∉': ['is not an element of', '不属于'],
  '⊂': ['is a subset of', '包含于'], '∪': ['union', '并'], '∩': ['intersection', '交'], '∞': ['infinity', '无穷大'], '∑': ['the sum', '求和'], '∏': ['the product', '求积'],
  '∫': ['the integral', '积分'], '∂': ['partial', '偏'], '∇': ['nabla', '梯度'], '!': ['factorial', '的阶乘'], '%': ['percent', '百分号'], '′': ['prime', '导数'], '°': ['degrees', '度'],
  ',': [',', '，'], '(': ['', ''], ')': ['', ''], '[': ['', ''], ']': ['', ''], '{': ['', ''], '}': ['', ''], '|': ['', ''], '\u2061': ['', ''], '\u2062': ['', ''], '\u2063': ['', ''],
  lim: ['the limit', '极限'], max: ['the maximum', '最大值'], min: ['the minimum', '最小值'],
};

export const GREEK: Readonly<Record<string, readonly [string, string]>> = {
  α: ['alpha', '阿尔法'], β: ['beta', '贝塔'], γ: ['gamma', '伽马'], δ: ['delta', '德尔塔'], ε: ['epsilon', '艾普西隆'], ζ: ['zeta', '泽塔'], η: ['eta', '伊塔'], θ: ['theta', '西塔'],
  λ: ['lambda', '兰姆达'], μ: ['mu', '缪'], ν: ['nu', '纽'], ξ: ['xi', '克西'], π: ['pi', '派'], ρ: ['rho', '柔'], σ: ['sigma', '西格玛'], τ: ['tau', '陶'], φ: ['phi', '斐'], χ: ['chi', '卡伊'],
  ψ: ['psi', '普西'], ω: ['omega', '欧米伽'], Γ: ['capital gamma', '大写伽马'], Δ: ['capital delta', '大写德尔塔'], Θ: ['capital theta', '大写西塔'], Λ: ['capital lambda', '大写兰姆达'],
  Π: ['capital pi', '大写派'], Σ: ['capital sigma', '大写西格玛'], Φ: ['capital phi', '大写斐'], Ψ: ['capital psi', '大写普西'], Ω: ['capital omega', '大写欧米伽'],
};

export const FUNCTIONS: Readonly<Record<string, readonly [string, string]>> = {
  sin: ['sine', '正弦'], cos: ['cosine', '余弦'], tan: ['tangent', '正切'], cot: ['cotangent', '余切'], sec: ['secant', '正割'], csc: ['cosecant', '余割'],
  log: ['log', '对数'], ln: ['natural log', '自然对数'], exp: ['exp', '指数'], lim: ['the limit', '极限'], det: ['determinant', '行列式'],
};

/** Accents over a base (<mover>): x̄ is "x bar". */
export const ACCENTS: Readonly<Record<string, readonly [string, string]>> = {
  '¯': ['bar', '拔'], '‾': ['bar', '拔'], '^': ['hat', '帽'], 'ˆ': ['hat', '帽'], '→': ['vector', '向量'], '˙': ['dot', '点'], '~': ['tilde', '波浪'], '˜': ['tilde', '波浪'],
};
