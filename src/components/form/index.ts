export { Checkbox } from './Checkbox';
export { fieldClass } from './field-class';
export { SelectField } from './SelectField';
export { type FieldSize, TextField } from './TextField';
export { ToggleSwitch } from './ToggleSwitch';
