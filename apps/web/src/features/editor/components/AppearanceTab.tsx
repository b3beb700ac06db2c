import { ColorInput, Group, Select, SegmentedControl, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { FONTS, type Font } from '@plink/contracts';
import type { PageFormValues } from '../model/page-form';
import type { PageForm } from '../hooks/usePageForm';
import { ImageField } from './ImageField';
import { imageFieldProps } from './image-field-props';

const FONT_OPTIONS = FONTS.map((font) => ({ value: font, label: font }));

const TEXT_FONTS = [
  { font: 'titleFont', boldField: 'titleBold', label: 'Title' },
  { font: 'descriptionFont', boldField: 'descriptionBold', label: 'Description' },
  { font: 'authorFont', boldField: 'authorBold', label: 'Author' },
] as const satisfies readonly { font: keyof PageFormValues; boldField: keyof PageFormValues; label: string }[];

/** The Appearance tab: colours, background image, fonts and bold flags, alignment, corners, shadow. */
export function AppearanceTab({ form }: { form: PageForm }) {
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <ColorInput label="Button Color" format="hex" withEyeDropper={false} placeholder="#000000" {...form.getInputProps('buttonColor')} />
        <ColorInput
          label="Background Color"
          format="hex"
          withEyeDropper={false}
          placeholder="#ffffff"
          {...form.getInputProps('backgroundColor')}
        />
      </SimpleGrid>
      <ImageField
        label="Background Image"
        description="Covers the whole page behind the card; large images are scaled to 2560 px wide."
        type="background"
        {...imageFieldProps(form, 'backgroundImage')}
      />
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          Fonts
        </Text>
        {TEXT_FONTS.map(({ font, boldField, label }) => (
          <Group key={font} align="flex-end" wrap="nowrap">
            <Select
              label={`${label} Font`}
              data={FONT_OPTIONS}
              searchable
              allowDeselect={false}
              maxDropdownHeight={260}
              style={{ flex: 1 }}
              renderOption={({ option }) => <span style={{ fontFamily: option.value as Font }}>{option.label}</span>}
              {...form.getInputProps(font)}
            />
            <Switch label="Bold" mb={8} {...form.getInputProps(boldField, { type: 'checkbox' })} aria-label={`${label} bold`} />
          </Group>
        ))}
      </Stack>
      <Stack gap={4}>
        <Text size="sm" fw={500} id="alignment-label">
          Text Alignment
        </Text>
        <SegmentedControl
          aria-labelledby="alignment-label"
          data={[
            { value: 'left', label: 'Left' },
            { value: 'center', label: 'Center' },
          ]}
          {...form.getInputProps('textAlignment')}
        />
      </Stack>
      <Switch
        label="Sharp corners"
        description="Square corners on the card, the field and the button."
        {...form.getInputProps('useSharpCorners', { type: 'checkbox' })}
      />
      <Switch label="Hide drop shadow" description="A flat card without a shadow." {...form.getInputProps('hideDropShadow', { type: 'checkbox' })} />
    </Stack>
  );
}
