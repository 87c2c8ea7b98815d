// The parts of react-native and react-native-webview (13.x) the example uses, as their own type
// declarations give them: their packages (and React Native's) are not installed in this repository.
declare module 'react-native' {
  export const Linking: { openURL(url: string): Promise<unknown> };
}

declare module 'react-native-webview' {
  import type { ComponentType } from 'react';
  export interface WebViewMessageEvent {
    nativeEvent: { data: string; url: string };
  }
  export interface ShouldStartLoadRequest {
    url: string;
    navigationType: string;
    isTopFrame: boolean;
  }
  export interface WebViewProps {
    source: { uri: string };
    onMessage?: (event: WebViewMessageEvent) => void;
    onShouldStartLoadWithRequest?: (request: ShouldStartLoadRequest) => boolean;
    setSupportMultipleWindows?: boolean;
    domStorageEnabled?: boolean;
  }
  export const WebView: ComponentType<WebViewProps>;
}
