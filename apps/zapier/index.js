// Plink's Zapier app (Zapier Platform CLI): the entry `zapier push` reads. Everything is in src/.
module.exports = require('./src/app');
