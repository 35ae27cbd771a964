/**
 * Azure neural voice names by the gender Azure publishes for them, for the locales of the
 * model's ten languages. Keyed by the voice's base name (en-US-JennyNeural, JennyMultilingualNeural
 * and Jenny:DragonHDLatestNeural are all Jenny); the locale comes from the full name. Data only.
 * Source: learn.microsoft.com/azure/ai-services/speech-service/language-support?tabs=tts (the
 * text to speech table: locale, voice name, gender), read 2025.
 */

const FEMALE = [
  // en-US
  'Ava', 'Andrea', 'Emma', 'Jenny', 'Aria', 'Jane', 'Nancy', 'Sara', 'Amber', 'Ana', 'Ashley', 'Cora', 'Elizabeth', 'Michelle', 'Monica', 'Evelyn', 'Lola', 'Phoebe', 'Serena', 'Amanda', 'Luna', 'Nova', 'Shimmer', 'Jessa', 'Zira', 'AIGenerate2',
  // en-GB, en-AU, en-CA, en-IN, en-IE, en-NZ, en-ZA, en-SG, en-HK, en-PH, en-KE, en-NG, en-TZ
  'Sonia', 'Libby', 'Abbi', 'Bella', 'Hollie', 'Maisie', 'Olivia', 'Ada', 'Natasha', 'Annette', 'Carly', 'Elsie', 'Freya', 'Joanne', 'Kim', 'Tina', 'Clara', 'Neerja', 'Aarti', 'Emily', 'Molly', 'Leah', 'Luna', 'Yan', 'Rosa', 'Asilia', 'Ezinne', 'Imani',
  // zh-CN (and its dialect locales), zh-HK, zh-TW
  'Xiaoxiao', 'Xiaoyi', 'Xiaochen', 'Xiaohan', 'Xiaomeng', 'Xiaomo', 'Xiaoqiu', 'Xiaorou', 'Xiaorui', 'Xiaoshuang', 'Xiaoxuan', 'Xiaoyan', 'Xiaoyou', 'Xiaozhen', 'Xiaoyu', 'Xiaobei', 'Xiaoni', 'HiuMaan', 'HiuGaai', 'HsiaoChen', 'HsiaoYu', 'Huihui', 'Yaoyao',
  // ja-JP, ko-KR
  'Nanami', 'Aoi', 'Mayu', 'Shiori', 'SunHi', 'JiMin', 'SeoHyeon', 'SoonBok', 'YuJin',
  // de-DE, fr-FR, fr-CA, es-ES, es-MX, it-IT, pt-BR, pt-PT, ru-RU
  'Katja', 'Amala', 'Elke', 'Gisela', 'Klarissa', 'Louisa', 'Maja', 'Tanja', 'Seraphina', 'Denise', 'Brigitte', 'Celeste', 'Coralie', 'Eloise', 'Jacqueline', 'Josephine', 'Yvette', 'Vivienne', 'Sylvie',
  'Elvira', 'Abril', 'Estrella', 'Irene', 'Laia', 'Lia', 'Triana', 'Vera', 'Ximena', 'Arabella', 'Isidora', 'Dalia', 'Beatriz', 'Candela', 'Carlota', 'Larissa', 'Marina', 'Nuria', 'Renata',
  'Elsa', 'Isabella', 'Fabiola', 'Fiamma', 'Imelda', 'Irma', 'Palmira', 'Pierina', 'Francisca', 'Brenda', 'Elza', 'Giovanna', 'Leila', 'Leticia', 'Manuela', 'Thalita', 'Yara', 'Raquel', 'Fernanda', 'Svetlana', 'Dariya',
];

const MALE = [
  // en-US
  'Andrew', 'Brian', 'Guy', 'Davis', 'Jason', 'Tony', 'Brandon', 'Christopher', 'Eric', 'Jacob', 'Roger', 'Steffan', 'Adam', 'Derek', 'Dustin', 'Lewis', 'Samuel', 'Kai', 'Alloy', 'Echo', 'Onyx', 'Benjamin', 'AIGenerate1',
  // en-GB, en-AU, en-CA, en-IN, en-IE, en-NZ, en-ZA, en-SG, en-HK, en-PH, en-KE, en-NG, en-TZ
  'Ryan', 'Alfie', 'Elliot', 'Ethan', 'Noah', 'Oliver', 'Thomas', 'Ollie', 'William', 'Darren', 'Duncan', 'Ken', 'Neil', 'Tim', 'Liam', 'Prabhat', 'Aarav', 'Kunal', 'Rehaan', 'Connor', 'Mitchell', 'Luke', 'Wayne', 'Sam', 'James', 'Chilemba', 'Abeo', 'Elimu',
  // zh-CN (and its dialect locales), zh-HK, zh-TW
  'Yunxi', 'Yunjian', 'Yunyang', 'Yunfeng', 'Yunhao', 'Yunxia', 'Yunye', 'Yunze', 'Yunjie', 'Yunyi', 'Yunfan', 'Yunxiao', 'Yundeng', 'Yunxiang', 'Yunqi', 'WanLung', 'YunJhe', 'Kangkang',
  // ja-JP, ko-KR
  'Keita', 'Daichi', 'Naoki', 'Masaru', 'InJoon', 'BongJin', 'GookMin', 'Hyunsu',
  // de-DE, fr-FR, fr-CA, es-ES, es-MX, it-IT, pt-BR, pt-PT, ru-RU
  'Conrad', 'Bernd', 'Christoph', 'Kasper', 'Killian', 'Klaus', 'Ralf', 'Florian', 'Henri', 'Alain', 'Claude', 'Jerome', 'Maurice', 'Yves', 'Remy', 'Antoine', 'Jean', 'Thierry',
  'Alvaro', 'Arnau', 'Dario', 'Elias', 'Nil', 'Saul', 'Tristan', 'Jorge', 'Cecilio', 'Gerardo', 'Liberto', 'Luciano', 'Pelayo', 'Yago',
  'Diego', 'Benigno', 'Calimero', 'Cataldo', 'Gianni', 'Lisandro', 'Rinaldo', 'Giuseppe', 'Alessio', 'Antonio', 'Donato', 'Fabio', 'Humberto', 'Julio', 'Nicolau', 'Valerio', 'Duarte', 'Dmitry',
];

export const AZURE_VOICE_GENDERS: ReadonlyMap<string, 'female' | 'male'> = new Map([
  ...FEMALE.map((n) => [n.toLowerCase(), 'female'] as const),
  ...MALE.map((n) => [n.toLowerCase(), 'male'] as const),
]);
