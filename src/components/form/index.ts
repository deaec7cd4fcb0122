export { Checkbox } from './Checkbox';
export { SelectField } from './SelectField';
export { type FieldSize, fieldClass, TextField } from './TextField';
export { ToggleSwitch } from './ToggleSwitch';
