// The vocabulary of the seeded demo catalog: stores, settlements, a small category tree and product kinds.

export const STORES = ['fixprice', 'chizhik', 'perekrestok'] as const;
export type Store = (typeof STORES)[number];

export interface SeedSettlement {
  id: number;
  name: string;
  region: string;
  regionNormalized: string | null;
  type: string;
  lat: number;
  lon: number;
}

export const COUNTRY = 'Россия';

// As the converter writes them: Russian names, region_normalized in Russian lower case. Novosibirsk has no
// region_normalized (matching falls back to region); Baikonur has no region at all.
export const SETTLEMENTS: SeedSettlement[] = [
  { id: 1, name: 'Москва', region: 'Москва', regionNormalized: 'москва', type: 'город', lat: 55.7558, lon: 37.6176 },
  { id: 2, name: 'Зеленоград', region: 'Москва', regionNormalized: 'москва', type: 'город', lat: 55.9825, lon: 37.1814 },
  {
    id: 3,
    name: 'Санкт-Петербург',
    region: 'Санкт-Петербург',
    regionNormalized: 'санкт-петербург',
    type: 'город',
    lat: 59.9311,
    lon: 30.3609,
  },
  {
    id: 4,
    name: 'Казань',
    region: 'Республика Татарстан',
    regionNormalized: 'республика татарстан',
    type: 'город',
    lat: 55.7963,
    lon: 49.1088,
  },
  {
    id: 5,
    name: 'Екатеринбург',
    region: 'Свердловская область',
    regionNormalized: 'свердловская область',
    type: 'город',
    lat: 56.8389,
    lon: 60.6057,
  },
  { id: 6, name: 'Новосибирск', region: 'Новосибирская область', regionNormalized: null, type: 'город', lat: 55.0084, lon: 82.9357 },
  { id: 7, name: 'Байконур', region: '', regionNormalized: '', type: 'город', lat: 45.6167, lon: 63.3167 },
];

/** Where each store sells; the first settlement is where most of its rows are. */
export const STORE_SETTLEMENTS: Record<Store, number[]> = {
  fixprice: [1, 3, 4, 5, 7],
  chizhik: [1, 2, 3, 6],
  perekrestok: [1, 3, 4, 5],
};

export const STORE_CATEGORY_PREFIX: Record<Store, string> = { fixprice: 'fp', chizhik: 'ch', perekrestok: 'pk' };

export interface SeedCategory {
  key: string;
  parent: string | null;
  title: string;
  alias: string;
}

/** One tree, repeated for every store (depth 0–2). */
export const CATEGORIES: SeedCategory[] = [
  { key: 'dairy', parent: null, title: 'Молочные продукты', alias: 'dairy' },
  { key: 'milk', parent: 'dairy', title: 'Молоко', alias: 'milk' },
  { key: 'cheese', parent: 'dairy', title: 'Сыры', alias: 'cheese' },
  { key: 'drinks', parent: null, title: 'Напитки', alias: 'drinks' },
  { key: 'juice', parent: 'drinks', title: 'Соки', alias: 'juice' },
  { key: 'water', parent: 'drinks', title: 'Вода', alias: 'water' },
  { key: 'hot-drinks', parent: 'drinks', title: 'Чай и кофе', alias: 'tea-coffee' },
  { key: 'tea', parent: 'hot-drinks', title: 'Чай', alias: 'tea' },
  { key: 'coffee', parent: 'hot-drinks', title: 'Кофе', alias: 'coffee' },
  { key: 'beer', parent: 'drinks', title: 'Пиво', alias: 'beer' },
  { key: 'grocery', parent: null, title: 'Бакалея', alias: 'grocery' },
  { key: 'cereals', parent: 'grocery', title: 'Крупы', alias: 'cereals' },
  { key: 'pasta', parent: 'grocery', title: 'Макароны', alias: 'pasta' },
  { key: 'sweets', parent: null, title: 'Сладости', alias: 'sweets' },
  { key: 'chocolate', parent: 'sweets', title: 'Шоколад', alias: 'chocolate' },
  { key: 'cookies', parent: 'sweets', title: 'Печенье', alias: 'cookies' },
  { key: 'household', parent: null, title: 'Бытовая химия', alias: 'household' },
  { key: 'dishes', parent: 'household', title: 'Средства для посуды', alias: 'dishwashing' },
  { key: 'hygiene', parent: 'household', title: 'Гигиена', alias: 'hygiene' },
  { key: 'shampoo', parent: 'hygiene', title: 'Шампуни', alias: 'shampoo' },
  { key: 'soap', parent: 'hygiene', title: 'Мыло', alias: 'soap' },
];

export interface ProductKind {
  category: string;
  noun: string;
  variants: string[];
  brands: Array<string | null>;
  sizes: Array<[number, string, string]>; // quantity, label in the title, package_unit
  unit: string;
  price: [number, number];
  adult?: boolean;
}

export const PRODUCT_KINDS: ProductKind[] = [
  {
    category: 'milk',
    noun: 'Молоко',
    variants: ['2,5%', '3,2%', 'ультрапастеризованное 3,2%', 'безлактозное 1,5%'],
    brands: ['Простоквашино', 'Домик в деревне', 'Parmalat', 'Весёлый молочник', null],
    sizes: [
      [0.93, '930 мл', 'LTR'],
      [1, '1 л', 'LTR'],
      [1.4, '1,4 л', 'LTR'],
    ],
    unit: 'PCE',
    price: [69, 139],
  },
  {
    category: 'cheese',
    noun: 'Сыр',
    variants: ['Российский 50%', 'Гауда 45%', 'Маасдам 45%', 'плавленый'],
    brands: ['Брест-Литовск', 'Hochland', 'Ламбер', null],
    sizes: [
      [0.2, '200 г', 'KGM'],
      [0.3, '300 г', 'KGM'],
    ],
    unit: 'PCE',
    price: [149, 449],
  },
  {
    category: 'juice',
    noun: 'Сок',
    variants: ['яблочный', 'апельсиновый', 'томатный', 'мультифрукт'],
    brands: ['J7', 'Добрый', 'Rich', 'Любимый'],
    sizes: [
      [0.2, '200 мл', 'LTR'],
      [0.97, '0,97 л', 'LTR'],
      [1.93, '1,93 л', 'LTR'],
    ],
    unit: 'PCE',
    price: [39, 229],
  },
  {
    category: 'water',
    noun: 'Вода питьевая',
    variants: ['негазированная', 'газированная'],
    brands: ['Святой источник', 'BonAqua', 'Шишкин лес', null],
    sizes: [
      [0.5, '0,5 л', 'LTR'],
      [1.5, '1,5 л', 'LTR'],
      [5, '5 л', 'LTR'],
    ],
    unit: 'PCE',
    price: [25, 149],
  },
  {
    category: 'tea',
    noun: 'Чай',
    variants: ['чёрный байховый', 'зелёный', 'чёрный с бергамотом'],
    brands: ['Greenfield', 'Lipton', 'Майский', 'Принцесса Нури'],
    sizes: [
      [25, '25 пакетиков', 'PCE'],
      [100, '100 пакетиков', 'PCE'],
    ],
    unit: 'PCE',
    price: [59, 399],
  },
  {
    category: 'coffee',
    noun: 'Кофе',
    variants: ['растворимый', 'молотый', 'в зёрнах'],
    brands: ['Nescafe', 'Jacobs', 'Жокей', 'Lavazza'],
    sizes: [
      [0.095, '95 г', 'KGM'],
      [0.25, '250 г', 'KGM'],
      [1, '1 кг', 'KGM'],
    ],
    unit: 'PCE',
    price: [189, 1499],
  },
  {
    category: 'beer',
    noun: 'Пиво',
    variants: ['светлое 4,5%', 'тёмное 4,7%', 'нефильтрованное 5%'],
    brands: ['Жигулёвское', 'Балтика', 'Amstel', 'Жатецкий гусь'],
    sizes: [
      [0.45, '0,45 л', 'LTR'],
      [0.5, '0,5 л', 'LTR'],
    ],
    unit: 'PCE',
    price: [59, 159],
    adult: true,
  },
  {
    category: 'cereals',
    noun: 'Крупа',
    variants: ['гречневая ядрица', 'рис круглозёрный', 'пшено', 'овсяные хлопья'],
    brands: ['Увелка', 'Мистраль', 'Националь', null],
    sizes: [
      [0.8, '800 г', 'KGM'],
      [0.9, '900 г', 'KGM'],
    ],
    unit: 'PCE',
    price: [49, 189],
  },
  {
    category: 'pasta',
    noun: 'Макароны',
    variants: ['спагетти', 'перья', 'рожки', 'фузилли'],
    brands: ['Barilla', 'Макфа', 'Шебекинские', null],
    sizes: [
      [0.4, '400 г', 'KGM'],
      [0.45, '450 г', 'KGM'],
    ],
    unit: 'PCE',
    price: [45, 179],
  },
  {
    category: 'chocolate',
    noun: 'Шоколад',
    variants: ['молочный', 'горький 70%', 'с фундуком'],
    brands: ['Alpen Gold', 'Россия', 'Бабаевский', 'Ritter Sport'],
    sizes: [
      [0.085, '85 г', 'KGM'],
      [0.1, '100 г', 'KGM'],
    ],
    unit: 'PCE',
    price: [59, 249],
  },
  {
    category: 'cookies',
    noun: 'Печенье',
    variants: ['овсяное', 'сахарное', 'с шоколадом'],
    brands: ['Юбилейное', 'Любятово', 'Choco Pie', null],
    sizes: [
      [0.2, '200 г', 'KGM'],
      [0.3, '300 г', 'KGM'],
    ],
    unit: 'PCE',
    price: [39, 199],
  },
  {
    category: 'dishes',
    noun: 'Средство для мытья посуды',
    variants: ['лимон', 'алоэ вера', 'бальзам'],
    brands: ['Fairy', 'AOS', 'Sorti', null],
    sizes: [
      [0.45, '450 мл', 'LTR'],
      [0.9, '900 мл', 'LTR'],
    ],
    unit: 'PCE',
    price: [69, 329],
  },
  {
    category: 'shampoo',
    noun: 'Шампунь',
    variants: ['для всех типов волос', 'против перхоти', 'для окрашенных волос'],
    brands: ['Head & Shoulders', 'Чистая линия', 'Pantene', 'Shamtu'],
    sizes: [
      [0.25, '250 мл', 'LTR'],
      [0.4, '400 мл', 'LTR'],
    ],
    unit: 'PCE',
    price: [149, 549],
  },
  {
    category: 'soap',
    noun: 'Мыло',
    variants: ['туалетное', 'жидкое', 'хозяйственное 72%'],
    brands: ['Dove', 'Палмолив', 'Чистая линия', null],
    sizes: [
      [0.09, '90 г', 'KGM'],
      [0.3, '300 мл', 'LTR'],
    ],
    unit: 'PCE',
    price: [29, 249],
  },
];
