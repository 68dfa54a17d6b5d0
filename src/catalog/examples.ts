// The product the help examples use: the first one `trident sandbox` seeds (its catalog is seeded with a
// fixed seed, so this product and its store rows exist whatever --products says). It is sold by fixprice,
// chizhik and perekrestok; perekrestok's row (source id 100005) has prices and stock up to the seeding
// day, so the dynamics examples draw values, not only gaps.
export const SANDBOX_PRODUCT = '8eb4db95-5741-4600-8fc0-d7803a15f22d';
export const SANDBOX_SERIES = '--store perekrestok --source-id 100005';
