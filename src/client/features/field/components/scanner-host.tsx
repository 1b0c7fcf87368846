/**
 * The console's camera scanner (lib/scanner, built on Mantine) inside the light field app: Mantine and its
 * styles load with this chunk only when the technician taps Scan, never with the field app's first load.
 */
import '@mantine/core/styles.css';
import { MantineProvider, createTheme } from '@mantine/core';
import { BarcodeScanner, type BarcodeScannerProps } from '@client/lib/scanner/barcode-scanner';

const theme = createTheme({ primaryColor: 'blue', primaryShade: 7, defaultRadius: 'md', fontFamily: 'inherit' });

export function ScannerHost(props: BarcodeScannerProps) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <BarcodeScanner {...props} />
    </MantineProvider>
  );
}
