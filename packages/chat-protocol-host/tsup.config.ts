export { default } from '../../config/tsup.js';
